package io.lahar.cli.jobtemplate;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.JobTable;
import java.util.ArrayList;
import java.util.List;

/** {@code lahar jobtemplate view NAME} without {@code -o}: the job the template makes, in a few lines, then its tasks. */
public final class TemplateDescription {

    private TemplateDescription() {}

    public static String describe(JsonNode template) {
        JsonNode meta = template.path("metadata");
        JsonNode spec = template.path("spec");
        List<List<String>> fields = new ArrayList<>();
        fields.add(List.of("Name:", meta.path("name").asText("")));
        fields.add(List.of("Namespace:", meta.path("namespace").asText("")));
        fields.add(List.of("Creation:", meta.path("creationTimestamp").asText("")));
        fields.add(List.of("Queue:", spec.path("queue").asText("")));
        fields.add(List.of("Scheduler:", spec.path("schedulerName").asText("")));
        fields.add(List.of("Min Available:", spec.path("minAvailable").asText("")));
        fields.add(List.of("Max Retry:", spec.path("maxRetry").asText("")));
        StringBuilder out = new StringBuilder(JobTable.render(fields));
        List<List<String>> tasks = new ArrayList<>();
        tasks.add(List.of("Task", "Replicas", "Min"));
        for (JsonNode task : spec.path("tasks")) {
            String replicas = task.path("replicas").asText("0");
            tasks.add(List.of(
                    task.path("name").asText(""),
                    replicas,
                    task.path("minAvailable").asText(replicas)));
        }
        if (tasks.size() > 1) {
            out.append('\n').append(JobTable.render(tasks));
        }
        return out.toString();
    }
}
