package io.lahar.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.JobTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The listing of a {@link Resource} as kubectl prints one: Name and Namespace first, the kind's own
 * columns, Age last. Built here, so the kinds' listings differ only in their own columns.
 */
public final class ResourceTable {

    private ResourceTable() {}

    /**
     * The table of {@code rows} (the kind's GET); {@code No resources found} when there are none.
     *
     * @param columns the headers of the kind's own columns
     * @param cells   a row's own cells, one per column
     */
    public static String format(
            JsonNode rows, Instant now, List<String> columns, Function<JsonNode, List<String>> cells) {
        List<String> header = new ArrayList<>(List.of("Name", "Namespace"));
        header.addAll(columns);
        header.add("Age");
        return JobTable.rows(rows, header, row -> {
            List<String> line = new ArrayList<>();
            line.add(row.path("name").asText(""));
            line.add(row.path("namespace").asText(""));
            line.addAll(cells.apply(row));
            line.add(Age.since(row.path("creationTimestamp").asText(""), now));
            return line;
        });
    }
}
