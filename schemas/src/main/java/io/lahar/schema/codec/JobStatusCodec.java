package io.lahar.schema.codec;

import io.lahar.core.api.GoDuration;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Timestamps;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.TaskState;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A Job with the engine's status to its {@code lahar.job-status} record. */
public final class JobStatusCodec {

    private JobStatusCodec() {
    }

    /**
     * @param job  a job whose status the engine has set
     * @param time event time of the input that produced this state
     */
    public static JobStatusRecord toRecord(Job job, long time) {
        return toRecord(job, Manifests.toJson(job.withStatus(null)), time);
    }

    /**
     * The record with {@code manifest} as its manifest, which must be what {@link #toRecord(Job, long)}
     * renders ({@code Manifests.toJson(job.withStatus(null))}): for a caller that keeps the rendering
     * while the job's spec is unchanged (the streams-app, where a pod event changes only the status).
     */
    public static JobStatusRecord toRecord(Job job, String manifest, long time) {
        JobStatus status = job.status();
        if (status == null || status.state() == null || status.state().phase() == null) {
            throw new IllegalArgumentException("status.state.phase: job " + job.namespace() + "/" + job.name()
                    + " has no phase yet");
        }
        io.lahar.core.api.JobState state = status.state();
        // Sorted maps: the same state must give the same bytes, so replay can be compared byte for byte.
        TreeMap<String, TaskState> tasks = new TreeMap<>();
        if (status.taskStatusCount() != null) {
            status.taskStatusCount().forEach((task, counts) -> tasks.put(task,
                    new TaskState(counts == null || counts.phase() == null ? Map.of() : new TreeMap<>(counts.phase()))));
        }
        return JobStatusRecord.newBuilder()
                .setNamespace(job.namespace())
                .setName(job.name())
                .setUid(job.metadata() == null || job.metadata().uid() == null ? "" : job.metadata().uid())
                .setQueue(job.spec().queue() == null ? "default" : job.spec().queue())
                .setManifest(manifest)
                .setStatus(io.lahar.schema.JobStatus.newBuilder()
                        .setState(io.lahar.schema.JobState.newBuilder()
                                .setPhase(state.phase().name())
                                .setReason(state.reason())
                                .setMessage(state.message())
                                .setLastTransitionTime(instant(state.lastTransitionTime()))
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
                        .setRunningDuration(status.runningDuration() == null ? null
                                : GoDuration.parse(status.runningDuration()).map(Duration::toMillis).orElse(null))
                        .setControlledResources(status.controlledResources() == null ? Map.of()
                                : new TreeMap<>(status.controlledResources()))
                        .setConditions(status.conditions() == null ? List.of() : status.conditions().stream()
                                .map(c -> new JobCondition(c.status().name(), Timestamps.parse(c.lastTransitionTime())))
                                .toList())
                        .build())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    static Instant instant(String text) {
        return text == null ? null : Timestamps.parse(text);
    }

    static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
