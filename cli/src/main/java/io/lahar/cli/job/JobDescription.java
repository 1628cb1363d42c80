package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** {@code lahar job view NAME} without {@code -o}: the job's spec and status in a few lines, then its tasks. */
public final class JobDescription {

    private JobDescription() {
    }

    public static String describe(JsonNode job) {
        JsonNode meta = job.path("metadata");
        JsonNode spec = job.path("spec");
        JsonNode status = job.path("status");
        JsonNode state = status.path("state");
        List<List<String>> fields = new ArrayList<>();
        field(fields, "Name:", meta.path("name").asText(""));
        field(fields, "Namespace:", meta.path("namespace").asText(""));
        field(fields, "Creation:", meta.path("creationTimestamp").asText(""));
        field(fields, "Queue:", spec.path("queue").asText(""));
        field(fields, "Scheduler:", spec.path("schedulerName").asText(""));
        field(fields, "Phase:", state.path("phase").asText(""));
        if (!state.path("reason").asText("").isEmpty()) {
            field(fields, "Reason:", state.path("reason").asText());
        }
        if (!state.path("message").asText("").isEmpty()) {
            field(fields, "Message:", state.path("message").asText());
        }
        field(fields, "Min Available:", status.path("minAvailable").asText(spec.path("minAvailable").asText("")));
        field(fields, "Retry Count:", status.path("retryCount").asInt(0) + " of " + spec.path("maxRetry").asText("3"));
        field(fields, "Pods:", "Pending " + status.path("pending").asInt(0) + ", Running " + status.path("running").asInt(0)
                + ", Succeeded " + status.path("succeeded").asInt(0) + ", Failed " + status.path("failed").asInt(0)
                + ", Unknown " + status.path("unknown").asInt(0));
        StringBuilder out = new StringBuilder(JobTable.render(fields));
        List<List<String>> tasks = new ArrayList<>();
        tasks.add(List.of("Task", "Replicas", "Min"));
        for (JsonNode task : spec.path("tasks")) {
            tasks.add(List.of(task.path("name").asText(""), task.path("replicas").asText("0"),
                    task.path("minAvailable").asText(task.path("replicas").asText("0"))));
        }
        if (tasks.size() > 1) {
            out.append('\n').append(JobTable.render(tasks));
        }
        return out.toString();
    }

    private static void field(List<List<String>> fields, String label, String value) {
        fields.add(List.of(label, value));
    }
}
