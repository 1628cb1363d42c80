package io.lahar.streams.cron;

import static io.lahar.streams.flow.EngineRecords.decode;
import static io.lahar.streams.flow.EngineRecords.keyOf;
import static io.lahar.streams.flow.EngineRecords.reasons;
import static io.lahar.streams.flow.EngineRecords.required;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.cron.CronInput;
import io.lahar.core.cron.OwnedJob;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.InputRecords;
import io.lahar.streams.clock.DueIndex;
import io.lahar.streams.flow.FlowJobRejectionRekey;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jboss.logging.Logger;

/**
 * The CronJob engine: one node, keyed by CronJob ({@code namespace/name}), reading the CronJob
 * commands, what the job lifecycle observes of the jobs the CronJobs created (through the
 * {@code cron-job-status} repartition), job admission's refusals of those jobs, and the clock
 * ({@code lahar.cron-clock}: time from the log, so a replay creates the same jobs at the same
 * times). One node because all change the same CronJob entry.
 *
 * <p>Values arrive as bytes: a record that does not decode, or that the engine cannot process,
 * throws, and its {@code GuardedProcessor} sends it to the dead-letter topic with its bytes and the
 * reason instead of stopping the stream thread.
 */
final class CronEngineProcessor implements Processor<Object, byte[], Object, Object> {

    private static final Logger LOG = Logger.getLogger(CronEngineProcessor.class);

    record Decoders(
            Deserializer<CronJobCommand> commands, Deserializer<Tick> ticks, Deserializer<CommandResult> results) {}

    private final Decoders decoders;
    private final int tickBudget;
    private final AdmissionLimits limits;
    private ProcessorContext<Object, Object> context;
    private CronEngine engine;
    private DueIndex timers;
    private CronCommandInput commands;

    CronEngineProcessor(Decoders decoders, int tickBudget, AdmissionLimits limits) {
        this.decoders = decoders;
        this.tickBudget = tickBudget;
        this.limits = limits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        // No store scan here: a partition with many CronJobs would stall the rebalance.
        this.context = context;
        this.timers = new DueIndex(context.getStateStore(CronTopology.TIMERS));
        this.engine = new CronEngine(context, context.getStateStore(CronTopology.STORE), timers);
        this.commands = new CronCommandInput(context, engine, limits);
    }

    @Override
    public void process(Record<Object, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        String topic = meta.topic();
        String key = keyOf(record.key());
        if (topic.equals(Topics.CRONJOB_COMMANDS.name())) {
            commands.handle(key, decode(decoders.commands(), topic, record.value()), record.timestamp());
        } else if (topic.endsWith(CronTopology.REPARTITION + "-repartition")) {
            observed(key, CronObservation.of(required(topic, record.value())), record.timestamp());
        } else if (topic.endsWith(CronTopology.REJECTIONS + "-repartition")) {
            rejection(
                    key, decode(decoders.results(), Topics.COMMAND_RESULTS.name(), record.value()), record.timestamp());
        } else {
            // The node's fourth source: lahar.cron-clock, keyed by partition.
            InputRecords.requireClockKey(Topics.CRON_CLOCK, key, meta.partition());
            tick(decode(decoders.ticks(), topic, record.value()), record.timestamp());
        }
    }

    /** A job's phase, or its end; a job of an earlier CronJob of the same name is not this one's. */
    private void observed(String key, CronObservation o, long timestamp) {
        CronEntry entry = engine.load(key);
        if (!entry.live() || !entry.info().cronJob().metadata().uid().equals(o.ownerUid())) {
            return;
        }
        engine.apply(key, entry, o.input(), timestamp);
    }

    /**
     * Job admission refused a job a CronJob asked for. Only the refusal of the create command sent
     * for the job as it is now counts (the requestId names the CronJob's uid, the job and its
     * creation time): anything else is a late echo and ignored.
     */
    private void rejection(String key, CommandResult result, long timestamp) {
        FlowJobRejectionRekey.requireRefusalOf(key, result, CronEngine.SENDER_PREFIX, "CronJob");
        CronEntry entry = engine.load(key);
        if (!entry.live()) {
            return;
        }
        OwnedJob job = entry.info().job(result.getName());
        if (job == null
                || !CronEngine.requestId(entry.info(), "create", job.name(), job.createdAt())
                        .equals(result.getRequestId())) {
            LOG.debugf(
                    "cronjob %s: refusal %s is not about the current job %s; ignored",
                    key, result.getRequestId(), result.getName());
            return;
        }
        engine.apply(
                key,
                entry,
                new CronInput.JobRejected(
                        job.name(), reasons(result), result.getTime().toEpochMilli()),
                timestamp);
    }

    /**
     * A tick wakes the CronJobs of this partition with something due by its time, found by a
     * range scan of the due index, at most {@code tickBudget} per tick (the rest on the next ones).
     */
    private void tick(Tick tick, long timestamp) {
        long time = tick.getTime().toEpochMilli();
        timers.tick(time, tickBudget, "cronjob", due -> {
            CronEntry entry = engine.load(due.key());
            if (entry.live()) {
                engine.apply(due.key(), entry, new CronInput.Tick(time), timestamp);
            } else {
                timers.remove(due);
            }
        });
    }
}
