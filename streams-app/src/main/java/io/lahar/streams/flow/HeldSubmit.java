package io.lahar.streams.flow;

import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.SubmitFlowObject;
import java.time.Instant;

/**
 * A SubmitJobFlow that passed admission but names JobTemplates this partition cannot see yet.
 * Templates live on the partitions of their own keys and reach the flows through a global store
 * a few milliseconds behind their admission, so a template posted just before its flow may not
 * be visible when the flow arrives. The submission is held, unanswered, and looked at again on
 * every clock tick, until its templates are all visible (then it is admitted and answered) or
 * the grace is over (then it is rejected, naming every missing template). Bounded twice: by event
 * time ({@link #GRACE_MILLIS} after the command's time) and by ticks ({@link #MAX_CHECKS}), so a
 * sender whose clock runs ahead of the ticker's is answered all the same.
 *
 * @param checks the ticks that looked at it so far
 */
public record HeldSubmit(
        String requestId, String sender, String namespace, String name, String manifest, long time, int checks) {

    /** Event time a submission waits for its templates: far above the global store's lag, far below the REST timeout. */
    static final long GRACE_MILLIS = 5_000;
    /** Ticks a submission waits for its templates at most, whatever the clocks say. */
    static final int MAX_CHECKS = 10;

    static HeldSubmit of(FlowCommand command, SubmitFlowObject submit) {
        return new HeldSubmit(
                command.getRequestId(),
                command.getSender(),
                command.getNamespace(),
                command.getName(),
                submit.getManifest(),
                command.getTime().toEpochMilli(),
                0);
    }

    HeldSubmit checked() {
        return new HeldSubmit(requestId, sender, namespace, name, manifest, time, checks + 1);
    }

    /** Whether a tick at {@code tickTime}, looking once more, is the last chance. */
    boolean expiresAt(long tickTime) {
        return tickTime >= time + GRACE_MILLIS || checks + 1 >= MAX_CHECKS;
    }

    /** The command as it was sent, to be answered under its own requestId. */
    FlowCommand command() {
        return FlowCommand.newBuilder()
                .setRequestId(requestId)
                .setSender(sender)
                .setNamespace(namespace)
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setKind(FlowKind.JobFlow)
                .setCommand(new SubmitFlowObject(manifest))
                .build();
    }
}
