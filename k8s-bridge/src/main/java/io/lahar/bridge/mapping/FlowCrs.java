package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.SubmitFlowObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Volcano's flow.volcano.sh API (JobFlow, JobTemplate) to flow commands, and the engine's
 * JobFlowStatus back onto the JobFlow CR, with the field names of Volcano's JobFlowStatus.
 */
public final class FlowCrs {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private FlowCrs() {}

    /**
     * A JobFlow or JobTemplate seen for the first time. The request id comes from the CR's UID, so
     * an informer's re-list re-sends the same command and the engine applies it once.
     */
    public static FlowCommand submit(GenericKubernetesResource cr, FlowKind kind, Instant time) {
        return command(
                cr,
                kind,
                "k8s:" + cr.getMetadata().getUid() + ":submit",
                time,
                new SubmitFlowObject(VolcanoCrs.manifest(cr, VolcanoKinds.FLOW_API_VERSION, kind.name())));
    }

    /**
     * A change of the spec is submitted again: a JobTemplate is replaced, a JobFlow update is
     * refused by the engine (as Volcano's webhook refuses it), and the refusal becomes an Event.
     */
    public static FlowCommand resubmit(GenericKubernetesResource cr, FlowKind kind, Instant time) {
        return command(
                cr,
                kind,
                "k8s:" + cr.getMetadata().getUid() + ":" + VolcanoCrs.specVersion(cr),
                time,
                new SubmitFlowObject(VolcanoCrs.manifest(cr, VolcanoKinds.FLOW_API_VERSION, kind.name())));
    }

    public static FlowCommand delete(GenericKubernetesResource cr, FlowKind kind, Instant time) {
        return command(
                cr,
                kind,
                "k8s:" + cr.getMetadata().getUid() + ":delete",
                time,
                new DeleteFlowObject(kind.name() + " " + VolcanoCrs.namespace(cr.getMetadata()) + "/"
                        + cr.getMetadata().getName() + " deleted in Kubernetes"));
    }

    private static FlowCommand command(
            GenericKubernetesResource cr, FlowKind kind, String requestId, Instant time, Object body) {
        return FlowCommand.newBuilder()
                .setRequestId(requestId)
                .setSender(VolcanoCrs.SENDER)
                .setNamespace(VolcanoCrs.namespace(cr.getMetadata()))
                .setName(cr.getMetadata().getName())
                .setTime(time)
                .setKind(kind)
                .setCommand(body)
                .build();
    }

    /**
     * Volcano's JobFlowStatus JSON. Empty lists and zero times are left out, as Go's
     * {@code omitempty} leaves out empty lists (a zero metav1.Time would be written as null).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> flowStatus(JobFlowStatusRecord record) {
        JobFlowStatus s = record.getStatus();
        ObjectNode out = NODES.objectNode();
        names(out, "pendingJobs", s.getPendingJobs());
        names(out, "runningJobs", s.getRunningJobs());
        names(out, "failedJobs", s.getFailedJobs());
        names(out, "completedJobs", s.getCompletedJobs());
        names(out, "terminatedJobs", s.getTerminatedJobs());
        names(out, "unKnowJobs", s.getUnKnowJobs());
        if (!s.getJobStatusList().isEmpty()) {
            ArrayNode list = out.putArray("jobStatusList");
            for (FlowJobStatus job : s.getJobStatusList()) {
                ObjectNode entry = list.addObject().put("name", job.getName()).put("state", job.getState());
                time(entry, "startTimestamp", job.getStartTimestamp());
                time(entry, "endTimestamp", job.getEndTimestamp());
                if (job.getRestartCount() != 0) {
                    entry.put("restartCount", job.getRestartCount());
                }
                if (!job.getRunningHistories().isEmpty()) {
                    ArrayNode histories = entry.putArray("runningHistories");
                    job.getRunningHistories().forEach(h -> {
                        ObjectNode history = histories.addObject();
                        time(history, "startTimestamp", h.getStartTimestamp());
                        time(history, "endTimestamp", h.getEndTimestamp());
                        history.put("state", h.getState());
                    });
                }
            }
        }
        if (!s.getConditions().isEmpty()) {
            ObjectNode conditions = out.putObject("conditions");
            s.getConditions().forEach((job, c) -> {
                ObjectNode condition = conditions.putObject(job).put("phase", c.getPhase());
                if (c.getCreateTime() != null) {
                    time(condition, "createTime", c.getCreateTime());
                }
                if (c.getRunningDuration() != null) {
                    condition.put("runningDuration", VolcanoCrs.goDuration(Duration.ofMillis(c.getRunningDuration())));
                }
                if (c.getMessage() != null) {
                    // Lahar's: why a job is Failed or in Backoff when job admission refused it.
                    condition.put("message", c.getMessage());
                }
                if (!c.getTaskStatusCount().isEmpty()) {
                    ObjectNode tasks = condition.putObject("taskStatusCount");
                    c.getTaskStatusCount()
                            .forEach((task, ts) ->
                                    tasks.putObject(task).set("phase", MAPPER.valueToTree(ts.getPhase())));
                }
            });
        }
        out.putObject("state").put("phase", s.getState().getPhase());
        return MAPPER.convertValue(out, Map.class);
    }

    private static void names(ObjectNode out, String field, List<String> names) {
        if (!names.isEmpty()) {
            ArrayNode list = out.putArray(field);
            names.forEach(list::add);
        }
    }

    private static void time(ObjectNode out, String field, Instant time) {
        if (time != null && !time.equals(Instant.EPOCH)) {
            out.put(field, VolcanoCrs.rfc3339(time));
        }
    }
}
