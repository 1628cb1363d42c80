package io.lahar.schema.codec;

import io.lahar.core.api.GoDuration;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Timestamps;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.TaskState;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.avro.io.Encoder;
import org.apache.avro.util.Utf8;

/** A Job with the engine's status to its {@code lahar.job-status} record. */
public final class JobStatusCodec {

    private JobStatusCodec() {}

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
        requirePhase(job);
        JobStatus status = job.status();
        io.lahar.core.api.JobState state = status.state();
        // Sorted maps: the same state must give the same bytes, so replay can be compared byte for byte.
        TreeMap<String, TaskState> tasks = new TreeMap<>();
        if (status.taskStatusCount() != null) {
            status.taskStatusCount()
                    .forEach((task, counts) -> tasks.put(
                            task,
                            new TaskState(
                                    counts == null || counts.phase() == null
                                            ? Map.of()
                                            : new TreeMap<>(counts.phase()))));
        }
        return JobStatusRecord.newBuilder()
                .setNamespace(job.namespace())
                .setName(job.name())
                .setUid(uid(job))
                .setQueue(queue(job))
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
                        .setRunningDuration(runningDurationMillis(status))
                        .setControlledResources(
                                status.controlledResources() == null
                                        ? Map.of()
                                        : new TreeMap<>(status.controlledResources()))
                        .setConditions(
                                status.conditions() == null
                                        ? List.of()
                                        : status.conditions().stream()
                                                .map(c -> new JobCondition(
                                                        c.status().name(), Timestamps.parse(c.lastTransitionTime())))
                                                .toList())
                        .build())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    // What the record makes of the job, one place for the record and its straight writing.

    private static String uid(Job job) {
        return job.metadata() == null || job.metadata().uid() == null
                ? ""
                : job.metadata().uid();
    }

    private static String queue(Job job) {
        return job.spec().queue() == null ? "default" : job.spec().queue();
    }

    /** Null when unset or not a Go duration. */
    private static Long runningDurationMillis(JobStatus status) {
        return status.runningDuration() == null
                ? null
                : GoDuration.parse(status.runningDuration())
                        .map(Duration::toMillis)
                        .orElse(null);
    }

    /** @throws IllegalArgumentException when the engine has not set the job's phase: no record can show it */
    public static void requirePhase(Job job) {
        JobStatus status = job.status();
        if (status == null || status.state() == null || status.state().phase() == null) {
            throw new IllegalArgumentException(
                    "status.state.phase: job " + job.namespace() + "/" + job.name() + " has no phase yet");
        }
    }

    /**
     * Writes the Avro binary of {@code toRecord(job, manifest, time)} without building it: the
     * record's fields in the schema's order, maps in key order as the record's sorted maps give them.
     * Why: the lifecycle sends a status record per job and commit, each with the manifest; building
     * the record (its nested records, maps and Instants) and letting Avro's generic writer walk it,
     * encoding the manifest to UTF-8 each time, was a visible share of the stream thread
     * (docs/decisions/008-codecs-held-to-library-bytes.md). Here the
     * manifest comes encoded ({@code manifest}, once per spec). CodecTest holds the bytes to the
     * generic writer's for statuses with every field set and unset, so a schema change fails the build
     * until it is written here too.
     */
    public static void write(Job job, Utf8 manifest, long time, Encoder out) throws IOException {
        requirePhase(job);
        JobStatus status = job.status();
        io.lahar.core.api.JobState state = status.state();
        out.writeString(job.namespace());
        out.writeString(job.name());
        out.writeString(uid(job));
        out.writeString(queue(job));
        out.writeString(manifest);
        // status.state
        out.writeString(state.phase().name());
        NullableWrites.string(state.reason(), out);
        NullableWrites.string(state.message(), out);
        NullableWrites.number(
                state.lastTransitionTime() == null
                        ? null
                        : Timestamps.parse(state.lastTransitionTime()).toEpochMilli(),
                out);
        out.writeInt(orZero(status.minAvailable()));
        Map<String, JobStatus.TaskState> tasks =
                status.taskStatusCount() == null ? Map.of() : sorted(status.taskStatusCount());
        out.writeMapStart();
        out.setItemCount(tasks.size());
        for (Map.Entry<String, JobStatus.TaskState> task : tasks.entrySet()) {
            out.startItem();
            out.writeString(task.getKey());
            JobStatus.TaskState counts = task.getValue();
            Map<String, Integer> phases = counts == null || counts.phase() == null ? Map.of() : sorted(counts.phase());
            out.writeMapStart();
            out.setItemCount(phases.size());
            for (Map.Entry<String, Integer> phase : phases.entrySet()) {
                out.startItem();
                out.writeString(phase.getKey());
                out.writeInt(phase.getValue());
            }
            out.writeMapEnd();
        }
        out.writeMapEnd();
        out.writeInt(orZero(status.pending()));
        out.writeInt(orZero(status.running()));
        out.writeInt(orZero(status.succeeded()));
        out.writeInt(orZero(status.failed()));
        out.writeInt(orZero(status.terminating()));
        out.writeInt(orZero(status.unknown()));
        out.writeInt(orZero(status.version()));
        out.writeInt(orZero(status.retryCount()));
        NullableWrites.number(runningDurationMillis(status), out);
        Map<String, String> resources =
                status.controlledResources() == null ? Map.of() : sorted(status.controlledResources());
        out.writeMapStart();
        out.setItemCount(resources.size());
        for (Map.Entry<String, String> resource : resources.entrySet()) {
            out.startItem();
            out.writeString(resource.getKey());
            out.writeString(resource.getValue());
        }
        out.writeMapEnd();
        List<JobStatus.JobCondition> conditions = status.conditions() == null ? List.of() : status.conditions();
        out.writeArrayStart();
        out.setItemCount(conditions.size());
        for (JobStatus.JobCondition c : conditions) {
            out.startItem();
            out.writeString(c.status().name());
            out.writeLong(Timestamps.parse(c.lastTransitionTime()).toEpochMilli());
        }
        out.writeArrayEnd();
        out.writeLong(time);
    }

    /** The map in key order, as the record's TreeMap copies hold it; one already sorted so is used as it is. */
    private static <V> Map<String, V> sorted(Map<String, V> map) {
        return map instanceof SortedMap<String, V> s && s.comparator() == null ? map : new TreeMap<>(map);
    }

    static Instant instant(String text) {
        return text == null ? null : Timestamps.parse(text);
    }

    static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
