package io.lahar.streams.flow;

import static io.lahar.streams.flow.EngineRecords.decode;
import static io.lahar.streams.flow.EngineRecords.keyOf;
import static io.lahar.streams.flow.EngineRecords.reasons;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowJob;
import io.lahar.schema.CommandResult;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.InputRecords;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jboss.logging.Logger;

/**
 * The JobFlow engine: one node, keyed by flow ({@code namespace/name}), reading the flow commands,
 * the status of the jobs its flows created (which the job lifecycle sends under the flow's key
 * through a repartition topic, see {@link FlowTopology#addRepartitions}), admission's refusals of
 * those jobs, and the clock ({@code lahar.flow-clock}: time from the log, so a replay fires the
 * same timers). One node for all because all change the same flow entry, which must see them in
 * the order the task reads them.
 *
 * <p>Values arrive as bytes: a record that does not decode, or that the engine cannot process,
 * throws, and its {@code GuardedProcessor} sends it to the dead-letter topic with its bytes and the
 * reason instead of stopping the stream thread.
 */
final class FlowEngineProcessor implements Processor<Object, byte[], Object, Object> {

    private static final Logger LOG = Logger.getLogger(FlowEngineProcessor.class);

    /** Decoders of the inputs and of the global stores' values. */
    record Decoders(
            Deserializer<FlowCommand> commands,
            Deserializer<JobStatusRecord> jobStatus,
            Deserializer<Tick> ticks,
            Deserializer<io.lahar.schema.JobTemplate> templates,
            Deserializer<JobFlowStatusRecord> flowStatus,
            Deserializer<CommandResult> results) {}

    private final Decoders decoders;
    private final int tickBudget;
    private final AdmissionLimits limits;
    private ProcessorContext<Object, Object> context;
    private FlowEngine engine;
    private FlowTimers timers;
    private FlowCommandInput commands;

    FlowEngineProcessor(Decoders decoders, int tickBudget, AdmissionLimits limits) {
        this.decoders = decoders;
        this.tickBudget = tickBudget;
        this.limits = limits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        // No store scan here: a partition with many flows would stall the rebalance.
        this.context = context;
        this.timers = new FlowTimers(context.getStateStore(FlowStores.TIMERS));
        TemplateLookup lookup = new TemplateLookup(
                context.getStateStore(FlowStores.GLOBAL_TEMPLATES),
                decoders.templates(),
                context.getStateStore(FlowStores.GLOBAL_FLOW_STATUS),
                decoders.flowStatus());
        this.engine = new FlowEngine(context, context.getStateStore(FlowStores.FLOWS), timers, lookup);
        this.commands =
                new FlowCommandInput(context, engine, context.getStateStore(FlowStores.TEMPLATES), lookup, limits);
    }

    @Override
    public void process(Record<Object, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        String topic = meta.topic();
        String key = keyOf(record.key());
        if (topic.equals(Topics.FLOW_COMMANDS.name())) {
            commands.handle(key, decode(decoders.commands(), topic, record.value()), record.timestamp());
        } else if (topic.endsWith(FlowTopology.REPARTITION + "-repartition")) {
            jobStatus(key, decode(decoders.jobStatus(), Topics.JOB_STATUS.name(), record.value()), record.timestamp());
        } else if (topic.endsWith(FlowTopology.REJECTIONS + "-repartition")) {
            rejection(
                    key, decode(decoders.results(), Topics.COMMAND_RESULTS.name(), record.value()), record.timestamp());
        } else {
            // The node's fourth source: lahar.flow-clock, keyed by partition.
            InputRecords.requireClockKey(Topics.FLOW_CLOCK, key, meta.partition());
            tick(decode(decoders.ticks(), topic, record.value()), record.timestamp());
        }
    }

    private void jobStatus(String key, JobStatusRecord status, long timestamp) {
        if (FlowCodecs.flowKey(status).filter(key::equals).isEmpty()) {
            throw new IllegalArgumentException("key: job status of " + status.getNamespace() + "/" + status.getName()
                    + " re-keyed to \"" + key + "\" names no flow of that key (no createdByJobFlow annotation for it)");
        }
        FlowEntry entry = engine.load(key);
        if (!entry.live()) {
            return; // the flow is gone (or never was): a late status of a job it had
        }
        Optional<FlowInput.JobStatusObserved> observed = FlowCodecs.observed(status);
        if (observed.isPresent()) {
            engine.apply(key, entry, observed.get(), timestamp);
        } else {
            LOG.warnf(
                    "jobflow %s: job %s is in phase %s, which this engine does not know; ignored",
                    key, status.getName(), status.getStatus().getState().getPhase());
        }
    }

    /**
     * Job admission refused a job a flow asked for. Only the refusal of the create command the
     * flow sent for the job as it is now counts (the requestId names the flow's uid, the job and
     * its creation time): a refusal of an earlier flow of the same name, or of an earlier
     * incarnation of the job, is a late echo and ignored.
     */
    private void rejection(String key, CommandResult result, long timestamp) {
        FlowJobRejectionRekey.requireRefusalOf(key, result, FlowJobRejectionRekey.SENDER_PREFIX, "flow");
        FlowEntry entry = engine.load(key);
        if (!entry.live()) {
            return;
        }
        FlowJob job = entry.info().jobs().values().stream()
                .filter(j -> j.name().equals(result.getName()))
                .findFirst()
                .orElse(null);
        if (job == null
                || job.createdAt() == null
                || !FlowEngine.requestId(entry.info(), "create", job.name(), job.createdAt())
                        .equals(result.getRequestId())) {
            LOG.debugf(
                    "jobflow %s: refusal %s is not about the current job %s; ignored",
                    key, result.getRequestId(), result.getName());
            return;
        }
        engine.apply(
                key,
                entry,
                new FlowInput.JobRejected(
                        job.name(), reasons(result), result.getTime().toEpochMilli()),
                timestamp);
    }

    /**
     * A tick wakes the flows of this partition with something due by its time, found by a range
     * scan of the timer index, at most {@code tickBudget} per tick (the rest on the next ones).
     */
    private void tick(Tick tick, long timestamp) {
        long time = tick.getTime().toEpochMilli();
        timers.tick(time, tickBudget, "jobflow", due -> {
            FlowEntry entry = engine.load(due.key());
            if (entry.held() != null) {
                commands.recheck(due.key(), entry, time, timestamp);
            } else if (entry.live()) {
                engine.apply(due.key(), entry, new FlowInput.Tick(time), timestamp);
            } else {
                timers.remove(due);
            }
        });
    }
}
