package io.lahar.cli.jobtemplate;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.resource.ResourceTable;
import java.time.Instant;
import java.util.List;

/**
 * {@code lahar jobtemplate list}: vcctl jobtemplate list's Name and Namespace, with the shape of
 * the job each template makes (queue, tasks, replicas, minAvailable) and kubectl's Age.
 */
public final class TemplateTable {

    /** The columns between Namespace and Age. */
    static final List<String> COLUMNS = List.of("Queue", "Tasks", "Replicas", "Min");

    private TemplateTable() {}

    /** The table of {@code rows} (GET /api/v1/jobtemplates); {@code No resources found} when there are none. */
    public static String format(JsonNode rows, Instant now) {
        return ResourceTable.format(
                rows,
                now,
                COLUMNS,
                row -> List.of(
                        row.path("queue").asText(""),
                        Integer.toString(row.path("tasks").asInt(0)),
                        Integer.toString(row.path("replicas").asInt(0)),
                        Integer.toString(row.path("minAvailable").asInt(0))));
    }
}
