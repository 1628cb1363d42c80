package io.lahar.cli.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.Description;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code lahar flow view NAME} without {@code -o}: the flow in a few lines, then its jobs in the
 * order of {@code spec.flows} (the job of flow entry {@code f} is named {@code <flow>-<f>}, as
 * Volcano's controller names it) with their state, start, end and restart count from
 * {@code status.jobStatusList}, then the conditions (per job: phase, creation, running time,
 * tasks by pod phase).
 */
public final class FlowDescription {

    private static final String NONE = "-";

    private FlowDescription() {}

    public static String describe(JsonNode flow) {
        JsonNode spec = flow.path("spec");
        JsonNode status = flow.path("status");
        return Description.of(flow)
                .field("Phase:", status.path("state").path("phase").asText(""))
                .field("Job Retain Policy:", spec.path("jobRetainPolicy").asText(""))
                .field(
                        "Jobs:",
                        "Pending " + status.path("pendingJobs").size() + ", Running "
                                + status.path("runningJobs").size()
                                + ", Completed " + status.path("completedJobs").size() + ", Failed "
                                + status.path("failedJobs").size()
                                + ", Terminated "
                                + status.path("terminatedJobs").size() + ", Unknown "
                                + status.path("unKnowJobs").size())
                .table(null, jobs(flow.path("metadata").path("name").asText(""), spec, status))
                .table("Conditions", conditions(status.path("conditions")))
                .text();
    }

    /** One row per flow entry, then any reported job no entry names (a flow's status may outlive a spec reading). */
    private static List<List<String>> jobs(String flowName, JsonNode spec, JsonNode status) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("Flow", "Job", "Depends On", "State", "Started", "Ended", "Restarts"));
        Set<String> shown = new LinkedHashSet<>();
        for (JsonNode entry : spec.path("flows")) {
            String entryName = entry.path("name").asText("");
            String job = flowName + "-" + entryName;
            List<String> targets = new ArrayList<>();
            entry.path("dependsOn").path("targets").forEach(t -> targets.add(t.asText()));
            rows.add(jobRow(
                    entryName, job, targets.isEmpty() ? NONE : String.join(",", targets), jobStatus(status, job)));
            shown.add(job);
        }
        for (JsonNode job : status.path("jobStatusList")) {
            String jobName = job.path("name").asText("");
            if (shown.add(jobName)) {
                rows.add(jobRow(NONE, jobName, NONE, job));
            }
        }
        return rows;
    }

    /** A job not created yet has no status: its cells are dashes. */
    private static List<String> jobRow(String entry, String job, String dependsOn, JsonNode js) {
        return List.of(
                entry,
                job,
                dependsOn,
                text(js.path("state")),
                text(js.path("startTimestamp")),
                text(js.path("endTimestamp")),
                js.isMissingNode()
                        ? NONE
                        : Integer.toString(js.path("restartCount").asInt(0)));
    }

    private static JsonNode jobStatus(JsonNode status, String job) {
        for (JsonNode js : status.path("jobStatusList")) {
            if (js.path("name").asText("").equals(job)) {
                return js;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static List<List<String>> conditions(JsonNode conditions) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("Job", "Phase", "Created", "Running For", "Tasks"));
        for (Map.Entry<String, JsonNode> c : conditions.properties()) {
            JsonNode condition = c.getValue();
            rows.add(List.of(
                    c.getKey(),
                    text(condition.path("phase")),
                    text(condition.path("createTime")),
                    text(condition.path("runningDuration")),
                    tasks(condition.path("taskStatusCount"))));
        }
        return rows;
    }

    /** Volcano's taskStatusCount: task name → {phase: {PodPhase: count}}, as {@code worker: Running 2, Pending 1; ps: Running 1}. */
    static String tasks(JsonNode taskStatusCount) {
        List<String> tasks = new ArrayList<>();
        for (Map.Entry<String, JsonNode> task : taskStatusCount.properties()) {
            JsonNode phases = task.getValue().has("phase") ? task.getValue().path("phase") : task.getValue();
            List<String> counts = new ArrayList<>();
            for (Map.Entry<String, JsonNode> phase : phases.properties()) {
                counts.add(phase.getKey() + " " + phase.getValue().asText());
            }
            tasks.add(task.getKey() + ": " + (counts.isEmpty() ? NONE : String.join(", ", counts)));
        }
        return tasks.isEmpty() ? NONE : String.join("; ", tasks);
    }

    /** A scalar as text, a dash when absent, null or empty. */
    private static String text(JsonNode node) {
        String value = node.isMissingNode() || node.isNull() ? "" : node.asText("");
        return value.isEmpty() ? NONE : value;
    }
}
