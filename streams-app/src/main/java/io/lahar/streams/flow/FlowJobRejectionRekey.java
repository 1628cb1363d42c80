package io.lahar.streams.flow;

import io.lahar.schema.CommandResult;
import io.lahar.schema.Topics;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Re-keys job admission's refusals of the jobs a JobFlow asked for from the job's key to the
 * flow's, so that a repartition brings them to the task that owns the flow (the statuses of its
 * jobs the job lifecycle sends there itself): a job the flow creates is submitted on
 * {@code lahar.job-commands} like any job, and when admission rejects it (the template names a
 * queue that does not exist or is closed, the patched spec is invalid) the only trace is a
 * {@code CommandResult} on {@code lahar.command-results}, keyed by the job.
 *
 * <p>The flow is read from the result's sender, {@code jobflow:<namespace>/<flow>}, which the
 * flow engine sets on every command it sends. Only rejected creations are passed on: a refused
 * delete (the job was already gone) tells the flow nothing. Most results are not a flow's: a
 * record whose bytes do not contain the sender's prefix is dropped without being decoded (one byte
 * scan per record), and so is a tombstone. One that has it but does not decode is dropped too: it
 * cannot be a result this engine can use, and the results topic is not the flow's input to
 * dead-letter.
 */
final class FlowJobRejectionRekey implements Processor<String, byte[], String, byte[]> {

    /** The sender prefix of the flow engine's job commands. */
    static final String SENDER_PREFIX = "jobflow:";

    private final ByteMarker marker = new ByteMarker(SENDER_PREFIX.getBytes(StandardCharsets.UTF_8));
    private final Deserializer<CommandResult> deserializer;
    private ProcessorContext<String, byte[]> context;

    FlowJobRejectionRekey(Deserializer<CommandResult> deserializer) {
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null || !marker.in(record.value())) {
            return;
        }
        CommandResult result;
        try {
            result = deserializer.deserialize(Topics.COMMAND_RESULTS.name(), record.value());
        } catch (RuntimeException e) {
            return;
        }
        flowKey(result).ifPresent(k -> context.forward(record.withKey(k)));
    }

    /** {@code namespace/flow} when the result is job admission refusing a job a flow of that namespace created; else empty. */
    static Optional<String> flowKey(CommandResult result) {
        if (result == null || result.getAccepted() || !"SubmitJob".equals(result.getKind())) {
            return Optional.empty();
        }
        String sender = result.getSender();
        if (sender == null || !sender.startsWith(SENDER_PREFIX)) {
            return Optional.empty();
        }
        String flow = sender.substring(SENDER_PREFIX.length());
        int slash = flow.indexOf('/');
        if (slash <= 0 || slash == flow.length() - 1 || !flow.substring(0, slash).equals(result.getNamespace())) {
            return Optional.empty();
        }
        return Optional.of(flow);
    }
}
