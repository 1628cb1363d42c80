package io.lahar.streams.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.flow.CreatedByFlow;
import io.lahar.core.flow.FlowInfo;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;
import io.lahar.schema.FlowCondition;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobRunningHistory;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.TaskState;
import io.lahar.schema.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The flow engine's records: core flow state to {@code lahar.flow-status}, templates, job status to flow input. */
public final class FlowCodecs {

    private FlowCodecs() {}

    /** The flow's state as its compacted status record: the admitted manifest and Volcano's JobFlowStatus. */
    public static JobFlowStatusRecord toStatusRecord(FlowInfo info) {
        JobFlow flow = info.flow();
        JobFlow.JobFlowStatus s = info.status();
        List<FlowJobStatus> list = new ArrayList<>();
        for (JobFlow.JobStatusEntry e : s.jobStatusList()) {
            List<JobRunningHistory> histories = new ArrayList<>();
            for (JobFlow.JobRunningHistory h :
                    e.runningHistories() == null ? List.<JobFlow.JobRunningHistory>of() : e.runningHistories()) {
                histories.add(new JobRunningHistory(instant(h.startTimestamp()), instant(h.endTimestamp()), h.state()));
            }
            list.add(new FlowJobStatus(
                    e.name(),
                    e.state(),
                    instant(e.startTimestamp()),
                    instant(e.endTimestamp()),
                    e.restartCount() == null ? 0 : e.restartCount(),
                    histories));
        }
        // Sorted maps: the same state gives the same bytes, so a replay can be compared byte for byte.
        Map<String, FlowCondition> conditions = new TreeMap<>();
        s.conditions()
                .forEach((job, c) -> conditions.put(
                        job,
                        new FlowCondition(
                                c.phase(),
                                c.createTime() == null ? null : Instant.parse(c.createTime()),
                                c.runningDuration() == null
                                        ? null
                                        : GoDuration.parse(c.runningDuration())
                                                .map(Duration::toMillis)
                                                .orElse(null),
                                tasks(c.taskStatusCount()),
                                c.message())));
        JobFlowStatus status = new JobFlowStatus(
                s.pendingJobs(),
                s.runningJobs(),
                s.completedJobs(),
                s.failedJobs(),
                s.terminatedJobs(),
                s.unKnowJobs(),
                list,
                conditions,
                new JobFlowState(
                        s.state() == null || s.state().phase() == null
                                ? "Pending"
                                : s.state().phase().name()));
        return JobFlowStatusRecord.newBuilder()
                .setNamespace(flow.namespace())
                .setName(flow.name())
                .setUid(flow.metadata().uid())
                .setManifest(Manifests.toJson(flow.withStatus(null)))
                .setStatus(status)
                .setTime(Instant.ofEpochMilli(info.time()))
                .build();
    }

    private static Map<String, TaskState> tasks(Map<String, JobStatus.TaskState> counts) {
        Map<String, TaskState> out = new TreeMap<>();
        if (counts != null) {
            counts.forEach((task, c) ->
                    out.put(task, new TaskState(c == null || c.phase() == null ? Map.of() : new TreeMap<>(c.phase()))));
        }
        return out;
    }

    /** Kubernetes' zero time for "not yet": the schema's 0 (the epoch). */
    private static Instant instant(String rfc3339) {
        return rfc3339 == null ? Instant.EPOCH : Instant.parse(rfc3339);
    }

    /** A JobFlow as the status record keeps it, with the phase it had: what template deletion checks. */
    public static JobFlow flowOf(JobFlowStatusRecord record) {
        JobFlow flow = Manifests.read(record.getManifest(), JobFlow.class);
        io.lahar.core.api.JobFlowPhase phase = io.lahar.core.api.JobFlowPhase.valueOf(
                record.getStatus().getState().getPhase());
        return flow.withStatus(
                new JobFlow.JobFlowStatus(null, null, null, null, null, null, null, null, new JobFlow.State(phase)));
    }

    /** The admitted template as lahar.job-templates carries it. */
    public static io.lahar.schema.JobTemplate toTemplateRecord(JobTemplate t, long time) {
        return io.lahar.schema.JobTemplate.newBuilder()
                .setNamespace(t.namespace())
                .setName(t.name())
                .setUid(t.metadata().uid())
                .setLabels(new TreeMap<>(t.metadata().labelsOrEmpty()))
                .setAnnotations(new TreeMap<>(t.metadata().annotationsOrEmpty()))
                .setSpec(Manifests.toJson(t.spec()))
                .setJobDependsOnList(List.of())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    /** A lahar.job-templates record as the core's JobTemplate (creationTimestamp is the record's time). */
    public static JobTemplate fromTemplateRecord(io.lahar.schema.JobTemplate r) {
        JsonNode spec;
        try {
            spec = Manifests.jsonMapper().readTree(r.getSpec());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("spec: not JSON: " + e.getMessage(), e);
        }
        ObjectMeta meta = new ObjectMeta(
                r.getName(),
                null,
                r.getNamespace(),
                r.getUid(),
                null,
                null,
                null,
                null,
                r.getLabels().isEmpty() ? null : new LinkedHashMap<>(r.getLabels()),
                r.getAnnotations().isEmpty() ? null : new LinkedHashMap<>(r.getAnnotations()),
                null,
                null);
        return new JobTemplate(
                JobTemplate.API_VERSION, JobTemplate.KIND, meta, Manifests.convert(spec, JobSpec.class), null);
    }

    /**
     * A job's status record as the flow engine's input; empty for a phase this engine does not
     * know (a newer writer's): the flow waits for a phase it understands rather than guess.
     */
    public static Optional<FlowInput.JobStatusObserved> observed(JobStatusRecord r) {
        JobPhase phase;
        try {
            phase = JobPhase.valueOf(r.getStatus().getState().getPhase());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        Map<String, JobStatus.TaskState> tasks = new TreeMap<>();
        r.getStatus()
                .getTaskStatusCount()
                .forEach((task, counts) -> tasks.put(
                        task, new JobStatus.TaskState(counts == null ? Map.of() : new TreeMap<>(counts.getPhase()))));
        return Optional.of(new FlowInput.JobStatusObserved(
                r.getName(),
                phase,
                tasks,
                r.getStatus().getRetryCount(),
                r.getTime().toEpochMilli()));
    }

    /**
     * {@code namespace/flow} of the flow that created the status record's job, from its manifest's
     * createdByJobFlow mark ({@link CreatedByFlow}); empty when the job is no flow's.
     */
    static Optional<String> flowKey(JobStatusRecord status) {
        JsonNode meta;
        try {
            meta = Manifests.jsonMapper().readTree(status.getManifest()).path("metadata");
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
        String mark = FlowRun.CREATED_BY_JOB_FLOW;
        return CreatedByFlow.of(
                        status.getNamespace(),
                        meta.path("annotations").path(mark).asText(""),
                        meta.path("labels").path(mark).asText(""))
                .map(flow -> Topics.jobKey(status.getNamespace(), flow));
    }
}
