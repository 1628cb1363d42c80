package io.lahar.streams.flow;

import io.lahar.schema.CommandResult;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.InputRecords;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

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
 * record whose bytes do not contain the sender's prefix is passed over without being decoded (one
 * byte scan per record): it is not this processor's to judge (the k8s-bridge, which reads every
 * result, dead-letters the ones that are bad). One that has the prefix but does not decode, or is
 * mis-keyed, throws, and its {@code GuardedProcessor} dead-letters it; so does a tombstone, which
 * the results topic does not have.
 *
 * <p>The CronJob engine's refusals are re-keyed alike, by their sender
 * {@code cronjob:<namespace>/<cronjob>}, by an instance made with that prefix and the first node
 * of its own repartition. That one passes over tombstones: the flows' instance reads the same
 * records and dead-letters them, so a tombstone makes one letter.
 */
public final class FlowJobRejectionRekey implements Processor<String, byte[], String, byte[]> {

    /** The sender prefix of the flow engine's job commands. */
    static final String SENDER_PREFIX = "jobflow:";

    private final String prefix;
    private final String next;
    private final boolean judgesTombstones;
    private final ByteMarker marker;
    private final Deserializer<CommandResult> deserializer;
    private ProcessorContext<String, byte[]> context;

    FlowJobRejectionRekey(Deserializer<CommandResult> deserializer) {
        this(SENDER_PREFIX, FlowTopology.REJECTIONS_NODE, true, deserializer);
    }

    /**
     * @param senderPrefix the prefix of the owner's sender, {@code <prefix><namespace>/<owner>}
     * @param next         the node the re-keyed refusals go to (its sibling is the dead-letter sink)
     */
    public FlowJobRejectionRekey(String senderPrefix, String next, Deserializer<CommandResult> deserializer) {
        this(senderPrefix, next, false, deserializer);
    }

    private FlowJobRejectionRekey(
            String senderPrefix, String next, boolean judgesTombstones, Deserializer<CommandResult> deserializer) {
        this.prefix = senderPrefix;
        this.next = next;
        this.judgesTombstones = judgesTombstones;
        this.marker = new ByteMarker(senderPrefix.getBytes(StandardCharsets.UTF_8));
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null ? !judgesTombstones : !marker.in(record.value())) {
            return;
        }
        CommandResult result = InputRecords.read(Topics.COMMAND_RESULTS, record.key(), record.value(), deserializer);
        ownerKey(result, prefix).ifPresent(k -> context.forward(record.withKey(k), next));
    }

    /** {@code namespace/flow} when the result is job admission refusing a job a flow of that namespace created; else empty. */
    static Optional<String> flowKey(CommandResult result) {
        return ownerKey(result, SENDER_PREFIX);
    }

    /**
     * Throws when {@code result}, re-keyed to {@code key}, is no refused job creation of the owner
     * of that key (sender {@code <senderPrefix><key>}): a mis-keyed record, for the engine's
     * {@code GuardedProcessor} to dead-letter with this reason.
     *
     * @param owner what the owner is called in the reason ("flow", "CronJob")
     */
    public static void requireRefusalOf(String key, CommandResult result, String senderPrefix, String owner) {
        if (ownerKey(result, senderPrefix).filter(key::equals).isEmpty()) {
            throw new IllegalArgumentException("key: command result " + result.getRequestId() + " re-keyed to \"" + key
                    + "\" is no refused job creation of that " + owner + " (sender " + result.getSender() + ")");
        }
    }

    /**
     * {@code namespace/owner} when the result is job admission refusing a job that the owner named
     * by the sender {@code <senderPrefix><namespace>/<owner>} created, in its namespace; else empty.
     */
    public static Optional<String> ownerKey(CommandResult result, String senderPrefix) {
        if (result == null || result.getAccepted() || !"SubmitJob".equals(result.getKind())) {
            return Optional.empty();
        }
        String sender = result.getSender();
        if (sender == null || !sender.startsWith(senderPrefix)) {
            return Optional.empty();
        }
        String flow = sender.substring(senderPrefix.length());
        int slash = flow.indexOf('/');
        if (slash <= 0
                || slash == flow.length() - 1
                || !flow.substring(0, slash).equals(result.getNamespace())) {
            return Optional.empty();
        }
        return Optional.of(flow);
    }
}
