package io.lahar.streams.job;

import io.lahar.core.admission.Violation;
import io.lahar.core.api.Action;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.command.JobRequest;
import io.lahar.core.command.JobVerdict;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.TaskState;
import io.lahar.schema.UpdateJob;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Maps between the job topics' Avro records and the core's model. No decisions here. */
public final class JobRecords {

    private JobRecords() {
    }

    /** The command as the core sees it; an action this engine does not know is refused by the caller. */
    public static JobRequest toRequest(JobCommand command) {
        JobRequest.Body body = switch (command.getCommand()) {
            case SubmitJob s -> new JobRequest.Submit(s.getManifest());
            case UpdateJob u -> new JobRequest.Update(u.getManifest());
            case DeleteJob d -> new JobRequest.Delete(d.getMessage());
            case JobActionCommand a -> new JobRequest.Act(
                    Action.of(a.getAction().name()).orElseThrow(() -> new IllegalArgumentException(
                            "command.action: " + a.getAction() + " is not an action this engine knows")),
                    a.getTask(), a.getPod(), a.getMessage());
            default -> throw new IllegalArgumentException("command: unknown command type " + command.getCommand().getClass().getName());
        };
        return new JobRequest(command.getRequestId(), command.getSender(), command.getNamespace(), command.getName(),
                command.getTime().toEpochMilli(), body);
    }

    public static CommandResult toResult(JobRequest request, JobVerdict verdict) {
        return CommandResult.newBuilder()
                .setRequestId(verdict.requestId())
                .setNamespace(request.namespace())
                .setName(request.name())
                .setKind(verdict.kind())
                .setAccepted(verdict.accepted())
                .setViolations(verdict.violations().stream().map(JobRecords::toViolation).toList())
                .setManifest(verdict.admitted() == null ? null : Manifests.toJson(verdict.admitted()))
                .setSender(request.sender())
                .setTime(Instant.ofEpochMilli(verdict.time()))
                .build();
    }

    /** A rejection of a record that decoded but cannot be turned into a request. */
    public static CommandResult rejection(JobCommand command, String key, List<Violation> violations) {
        return CommandResult.newBuilder()
                .setRequestId(command.getRequestId())
                .setNamespace(command.getNamespace())
                .setName(command.getName())
                .setKind(kindOf(command))
                .setAccepted(false)
                .setViolations(violations.stream().map(JobRecords::toViolation).toList())
                .setManifest(null)
                .setSender(command.getSender())
                .setTime(command.getTime())
                .build();
    }

    private static String kindOf(JobCommand command) {
        return switch (command.getCommand()) {
            case SubmitJob s -> "SubmitJob";
            case UpdateJob u -> "UpdateJob";
            case DeleteJob d -> "DeleteJob";
            case JobActionCommand a -> a.getAction().name();
            default -> command.getCommand().getClass().getSimpleName();
        };
    }

    private static io.lahar.schema.Violation toViolation(Violation v) {
        return new io.lahar.schema.Violation(v.path(), v.message());
    }

    /** The job-status record of a Job whose status the engine has set. */
    public static JobStatusRecord toStatusRecord(Job job, long time) {
        JobStatus status = job.status();
        io.lahar.core.api.JobState state = status.state();
        TreeMap<String, TaskState> tasks = new TreeMap<>();
        if (status.taskStatusCount() != null) {
            status.taskStatusCount().forEach((task, counts) -> tasks.put(task,
                    new TaskState(counts.phase() == null ? Map.of() : new TreeMap<>(counts.phase()))));
        }
        return JobStatusRecord.newBuilder()
                .setNamespace(job.namespace())
                .setName(job.name())
                .setUid(job.metadata().uid() == null ? "" : job.metadata().uid())
                .setQueue(job.spec().queue())
                .setManifest(Manifests.toJson(job.withStatus(null)))
                .setStatus(io.lahar.schema.JobStatus.newBuilder()
                        .setState(io.lahar.schema.JobState.newBuilder()
                                .setPhase(state.phase().name())
                                .setReason(state.reason())
                                .setMessage(state.message())
                                .setLastTransitionTime(state.lastTransitionTime() == null ? null : Instant.parse(state.lastTransitionTime()))
                                .build())
                        .setMinAvailable(orZero(status.minAvailable()))
                        .setTaskStatusCount(tasks)
                        .setPending(orZero(status.pending()))
                        .setRunning(orZero(status.running()))
                        .setSucceeded(orZero(status.succeeded()))
                        .setFailed(orZero(status.failed()))
                        .setTerminating(orZero(status.terminating()))
                        .setUnknown(orZero(status.unknown()))
                        .setVersion(orZero(status.version()))
                        .setRetryCount(orZero(status.retryCount()))
                        .setRunningDuration(status.runningDuration() == null ? null : GoDuration.parse(status.runningDuration()).map(java.time.Duration::toMillis).orElse(null))
                        .setControlledResources(status.controlledResources() == null ? Map.of() : new TreeMap<>(status.controlledResources()))
                        .setConditions(status.conditions() == null ? List.of() : status.conditions().stream()
                                .map(c -> new JobCondition(c.status().name(), Instant.parse(c.lastTransitionTime())))
                                .toList())
                        .build())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
