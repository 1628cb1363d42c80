package io.lahar.cli.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Renders queues as vcctl's table (plus Allocated and Deserved), or as JSON or YAML documents. */
final class QueueTable {

    static final List<String> HEADER = List.of(
            "Name",
            "Weight",
            "State",
            "Inqueue",
            "Pending",
            "Running",
            "Unknown",
            "Completed",
            "Allocated",
            "Deserved");

    private QueueTable() {}

    static String table(List<QueueView> queues) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (QueueView q : queues) {
            rows.add(List.of(
                    q.name(),
                    Integer.toString(q.weight()),
                    q.state(),
                    Integer.toString(q.inqueue()),
                    Integer.toString(q.pending()),
                    Integer.toString(q.running()),
                    Integer.toString(q.unknown()),
                    Integer.toString(q.completed()),
                    resources(q.allocated()),
                    resources(q.deserved())));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(String.format("%-" + widths[i] + "s", row.get(i)));
                if (i < row.size() - 1) {
                    line.append("  ");
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** {@code cpu=2,memory=4Gi}, sorted by resource name; {@code -} for none. */
    static String resources(Map<String, String> amounts) {
        if (amounts.isEmpty()) {
            return "-";
        }
        return amounts.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /** One document for {@code get}, a list for {@code list}. */
    static String json(Object documents) {
        try {
            return Manifests.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(documents) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String yaml(Object documents) {
        try {
            return Manifests.yamlMapper().writeValueAsString(documents);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String render(String format, List<QueueView> queues, boolean single) {
        Object docs = single
                ? queues.get(0).document()
                : queues.stream().map(QueueView::document).toList();
        return switch (format) {
            case "json" -> json(docs);
            case "yaml" -> yaml(docs);
            default -> table(queues);
        };
    }
}
