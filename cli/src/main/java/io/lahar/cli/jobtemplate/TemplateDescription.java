package io.lahar.cli.jobtemplate;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.Description;
import java.util.ArrayList;
import java.util.List;

/** {@code lahar jobtemplate view NAME} without {@code -o}: the job the template makes, in a few lines, then its tasks. */
public final class TemplateDescription {

    private TemplateDescription() {}

    public static String describe(JsonNode template) {
        JsonNode spec = template.path("spec");
        List<List<String>> tasks = new ArrayList<>();
        tasks.add(List.of("Task", "Replicas", "Min"));
        for (JsonNode task : spec.path("tasks")) {
            String replicas = task.path("replicas").asText("0");
            tasks.add(List.of(
                    task.path("name").asText(""),
                    replicas,
                    task.path("minAvailable").asText(replicas)));
        }
        return Description.of(template)
                .field("Queue:", spec.path("queue").asText(""))
                .field("Scheduler:", spec.path("schedulerName").asText(""))
                .field("Min Available:", spec.path("minAvailable").asText(""))
                .field("Max Retry:", spec.path("maxRetry").asText(""))
                .table(null, tasks)
                .text();
    }
}
