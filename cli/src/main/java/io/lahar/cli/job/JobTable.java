package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code lahar job list} as {@code vcctl job list} prints it: one row per job with the columns
 * Name, Creation, Phase, JobType, Replicas, Min, Pending, Running, Succeeded, Failed, Unknown,
 * RetryCount (Namespace first with --all-namespaces), left-aligned, each column as wide as its
 * widest cell.
 */
public final class JobTable {

    static final List<String> HEADERS = List.of(
            "Name",
            "Creation",
            "Phase",
            "JobType",
            "Replicas",
            "Min",
            "Pending",
            "Running",
            "Succeeded",
            "Failed",
            "Unknown",
            "RetryCount");

    private JobTable() {}

    /** The table of {@code rows} (the JSON summaries of GET /api/v1/jobs); a note when there are none. */
    public static String format(JsonNode rows, boolean withNamespace) {
        List<String> header = new ArrayList<>();
        if (withNamespace) {
            header.add("Namespace");
        }
        header.addAll(HEADERS);
        return rows(rows, header, row -> {
            List<String> cells = new ArrayList<>();
            if (withNamespace) {
                cells.add(row.path("namespace").asText(""));
            }
            cells.add(row.path("name").asText(""));
            cells.add(creationDate(row.path("creationTimestamp").asText("")));
            cells.add(row.path("phase").asText(""));
            cells.add(row.path("jobType").asText("Batch"));
            for (String field : List.of(
                    "replicas", "minAvailable", "pending", "running", "succeeded", "failed", "unknown", "retryCount")) {
                cells.add(Integer.toString(row.path(field).asInt(0)));
            }
            return cells;
        });
    }

    /** vcctl shows the creation day (2006-01-02) of an RFC 3339 timestamp; kubectl's {@code <unknown>} when there is none. */
    static String creationDate(String timestamp) {
        if (timestamp.isBlank() || timestamp.equals("null")) {
            return "<unknown>";
        }
        return timestamp.length() >= 10 ? timestamp.substring(0, 10) : timestamp;
    }

    /**
     * A listing as every list verb prints it: the header and one row of {@code cells} per JSON row,
     * or {@code No resources found} (kubectl's words) when there are none.
     */
    public static String rows(JsonNode rows, List<String> header, Function<JsonNode, List<String>> cells) {
        if (rows == null || rows.isEmpty()) {
            return "No resources found\n";
        }
        List<List<String>> table = new ArrayList<>();
        table.add(header);
        for (JsonNode row : rows) {
            table.add(cells.apply(row));
        }
        return render(table);
    }

    public static String render(List<List<String>> table) {
        int columns = table.get(0).size();
        int[] widths = new int[columns];
        for (List<String> row : table) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : table) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row.get(c));
                if (c < columns - 1) {
                    line.append(" ".repeat(widths[c] - row.get(c).length() + 3));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
