package io.lahar.schema.codec;

import io.lahar.core.admission.Violation;
import io.lahar.core.api.Action;
import io.lahar.core.api.Manifests;
import io.lahar.core.command.JobRequest;
import io.lahar.core.command.JobVerdict;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.UpdateJob;
import java.time.Instant;
import java.util.List;

/** {@code lahar.job-commands} to the core's {@link JobRequest}, and verdicts to {@code lahar.command-results}. */
public final class JobCommandCodec {

    private JobCommandCodec() {}

    /**
     * The command as the core sees it.
     *
     * @throws IllegalArgumentException "command.action: ..." for an action this engine does not
     *     know (an older reader sees a newer action as Unknown): such a command is refused, never guessed at
     */
    public static JobRequest toRequest(JobCommand command) {
        JobRequest.Body body = switch (command.getCommand()) {
            case SubmitJob s -> new JobRequest.Submit(s.getManifest());
            case UpdateJob u -> new JobRequest.Update(u.getManifest());
            case DeleteJob d -> new JobRequest.Delete(d.getMessage());
            case JobActionCommand a ->
                new JobRequest.Act(
                        Action.of(a.getAction().name())
                                .orElseThrow(() -> new IllegalArgumentException(
                                        "command.action: " + a.getAction() + " is not an action this engine knows")),
                        a.getTask(),
                        a.getPod(),
                        a.getMessage());
            default ->
                throw new IllegalArgumentException("command: unknown command type "
                        + command.getCommand().getClass().getName());
        };
        return new JobRequest(
                command.getRequestId(),
                command.getSender(),
                command.getNamespace(),
                command.getName(),
                command.getTime().toEpochMilli(),
                body);
    }

    public static CommandResult toResult(JobRequest request, JobVerdict verdict) {
        return CommandResult.newBuilder()
                .setRequestId(verdict.requestId())
                .setNamespace(request.namespace())
                .setName(request.name())
                .setKind(verdict.kind())
                .setAccepted(verdict.accepted())
                .setViolations(toViolations(verdict.violations()))
                .setManifest(verdict.admitted() == null ? null : Manifests.toJson(verdict.admitted()))
                .setSender(request.sender())
                .setTime(Instant.ofEpochMilli(verdict.time()))
                .setWarnings(verdict.warnings())
                .build();
    }

    /** A rejection of a record that decoded but cannot become a request (wrong key, unknown action). */
    public static CommandResult rejection(JobCommand command, List<Violation> violations) {
        return CommandResult.newBuilder()
                .setRequestId(command.getRequestId())
                .setNamespace(command.getNamespace())
                .setName(command.getName())
                .setKind(kindOf(command))
                .setAccepted(false)
                .setViolations(toViolations(violations))
                .setManifest(null)
                .setSender(command.getSender())
                .setTime(command.getTime())
                .build();
    }

    /** The kind a result names: SubmitJob, UpdateJob, DeleteJob or the action's name. */
    public static String kindOf(JobCommand command) {
        return switch (command.getCommand()) {
            case SubmitJob s -> "SubmitJob";
            case UpdateJob u -> "UpdateJob";
            case DeleteJob d -> "DeleteJob";
            case JobActionCommand a -> a.getAction().name();
            default -> command.getCommand().getClass().getSimpleName();
        };
    }

    static List<io.lahar.schema.Violation> toViolations(List<Violation> violations) {
        return violations.stream()
                .map(v -> new io.lahar.schema.Violation(v.path(), v.message()))
                .toList();
    }
}
