package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code view NAME} prints without {@code -o}, as {@code kubectl describe} lays it out:
 * {@code Label: value} fields in aligned columns, then the object's tables, each only when it has
 * rows. Every kind's description is built here, so they all start with the same Name, Namespace
 * and Creation and lay their tables out alike.
 */
public final class Description {

    private final List<List<String>> fields = new ArrayList<>();
    private final StringBuilder tables = new StringBuilder();

    private Description() {}

    /** A description that starts with the object's Name, Namespace and Creation. */
    public static Description of(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return new Description()
                .field("Name:", meta.path("name").asText(""))
                .field("Namespace:", meta.path("namespace").asText(""))
                .field("Creation:", meta.path("creationTimestamp").asText(""));
    }

    public Description field(String label, String value) {
        fields.add(List.of(label, value));
        return this;
    }

    /**
     * A table (its header first) after a blank line, under {@code title} when not null; left out
     * when it has only its header.
     */
    public Description table(String title, List<List<String>> table) {
        if (table.size() > 1) {
            tables.append('\n');
            if (title != null) {
                tables.append(title).append(":\n");
            }
            tables.append(JobTable.render(table));
        }
        return this;
    }

    /** The fields, then the tables. */
    public String text() {
        return JobTable.render(fields) + tables;
    }
}
