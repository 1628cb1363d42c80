package io.lahar.streams.flow;

import io.lahar.schema.CommandResult;
import io.lahar.schema.Topics;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.Optional;

/**
 * Re-keys job admission's refusals of the jobs a JobFlow asked for from the job's key to the
 * flow's, so that a repartition brings them to the task that owns the flow (as
 * {@link FlowJobStatusRekey} does for job status): a job the flow creates is submitted on
 * {@code lahar.job-commands} like any job, and when admission rejects it (the template names a
 * queue that does not exist or is closed, the patched spec is invalid) the only trace is a
 * {@code CommandResult} on {@code lahar.command-results}, keyed by the job.
 *
 * <p>The flow is read from the result's sender, {@code jobflow:<namespace>/<flow>}, which the
 * flow engine sets on every command it sends. Only rejected creations are passed on: a refused
 * delete (the job was already gone) tells the flow nothing. Most results are not a flow's: a
 * record whose bytes do not contain the sender's prefix is dropped without being decoded. One
 * that has it but does not decode is dropped too: it cannot be a result this engine can use, and
 * the results topic is not the flow's input to dead-letter.
 */
final class FlowJobRejectionRekey extends FlowRekey<CommandResult> {

    /** The sender prefix of the flow engine's job commands. */
    static final String SENDER_PREFIX = "jobflow:";

    FlowJobRejectionRekey(Deserializer<CommandResult> deserializer) {
        super(Topics.COMMAND_RESULTS.name(), SENDER_PREFIX, deserializer, false);
    }

    @Override
    Optional<String> flowKeyOf(CommandResult result) {
        return flowKey(result);
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
