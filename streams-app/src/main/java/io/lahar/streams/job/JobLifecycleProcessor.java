package io.lahar.streams.job;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.Queue;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.InputRecords;
import io.lahar.streams.job.kstreams.CommitHookStore;
import io.lahar.streams.queue.QueueLookup;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The job lifecycle: one processor node reads every input about jobs — commands, pod events,
 * scheduler decisions, clock ticks — from co-partitioned topics (key {@code namespace/name}; the
 * clock's key is its partition number) and hands each to the handler of its topic.
 *
 * <p>One node rather than one per input kind, on purpose: all four kinds change the same job
 * entry, so they must be applied in the order the task reads them and by a single writer of the
 * job's transitions; a single node with the store attached gives both without any coordination,
 * while the handlers keep each input's logic in its own small class.
 *
 * <p>Values arrive as bytes so a record that does not decode (or that the engine cannot
 * process) reaches this node, which throws; its {@code GuardedProcessor} sends it to the
 * dead-letter topic with its bytes and the reason instead of stopping the stream thread.
 */
public final class JobLifecycleProcessor implements Processor<byte[], byte[], Object, Object> {

    /** Decoders of the input topics, from the registry serdes. */
    public record Decoders(
            Deserializer<JobCommand> commands,
            Deserializer<PodEvent> podEvents,
            Deserializer<SchedulerDecision> decisions,
            Deserializer<Tick> ticks,
            Deserializer<Queue> queues) {}

    private final Decoders decoders;
    private final FlowStatusFeed flows;
    private final CronStatusFeed crons;
    private final int tickBudget;
    private final long maxClockStep;
    private final AdmissionLimits limits;
    private ProcessorContext<Object, Object> context;
    private Map<String, InputHandler> handlers;
    /** The clock's handler: ticks are keyed by their partition, which the handler does not see. */
    private InputHandler clock;

    /**
     * @param flows        where the statuses of the jobs a JobFlow created go besides {@code lahar.job-status}
     * @param crons        where what becomes of the jobs a CronJob created goes
     * @param tickBudget   at most this many jobs are woken by one tick
     * @param maxClockStep the most (ms) the timer clock advances on one tick (catch-up after an outage)
     * @param limits       the bounds job admission puts on a job's numbers
     */
    public JobLifecycleProcessor(
            Decoders decoders,
            FlowStatusFeed flows,
            CronStatusFeed crons,
            int tickBudget,
            long maxClockStep,
            AdmissionLimits limits) {
        this.decoders = decoders;
        this.flows = flows;
        this.crons = crons;
        this.tickBudget = tickBudget;
        this.maxClockStep = maxClockStep;
        this.limits = limits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        // No store scan here: a partition with many jobs would stall the rebalance.
        this.context = context;
        TimerIndex timers = new TimerIndex(context.getStateStore(TimerIndex.NAME));
        CommitHookStore store = context.getStateStore(JobStore.NAME);
        JobEntryStore jobs = new JobEntryStore(
                store.inner(),
                context.getStateStore(JobStore.PODS),
                new JobStore.Codec(),
                JobEntryStore.DEFAULT_CAPACITY);
        JobEngine engine = new JobEngine(context, store.taskCommit(context), jobs, timers, flows, crons);
        QueueLookup queues = new QueueLookup(context.getStateStore(QueueLookup.STORE), decoders.queues());
        this.clock = new ClockInput(decoders.ticks(), engine, timers, tickBudget, maxClockStep);
        this.handlers = Map.of(
                Topics.JOB_COMMANDS.name(), new CommandInput(decoders.commands(), context, engine, queues, limits),
                Topics.POD_EVENTS.name(), new PodEventInput(decoders.podEvents(), engine),
                Topics.SCHEDULER_DECISIONS.name(), new DecisionInput(decoders.decisions(), engine),
                Topics.CLOCK.name(), clock);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        String topic = meta.topic();
        InputHandler handler = handlers.get(topic);
        if (handler == null) {
            throw new IllegalStateException("no handler for topic " + topic);
        }
        if (record.key() == null || record.key().length == 0) {
            throw new IllegalArgumentException("key: the record has " + (record.key() == null ? "no" : "an empty")
                    + " key; " + topic + " records are keyed");
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        if (handler == clock) {
            InputRecords.requireClockKey(Topics.CLOCK, key, meta.partition());
        }
        handler.handle(key, record.value(), record.timestamp());
    }
}
