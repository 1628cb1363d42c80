package io.lahar.scheduler.cache;

import io.lahar.schema.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which nodes this scheduler may use, as Volcano's scheduler flag {@code --node-selector} scopes a
 * scheduler to part of a cluster: {@code key:value} labels, comma-separated; a node is used only
 * when it carries all of them. Empty selects every node (the default). Nodes it does not select
 * never enter the scheduler's snapshot, so nothing is placed on them.
 *
 * @param labels the labels a node must carry, each with exactly this value
 */
public record NodeSelector(Map<String, String> labels) {

    /** Every node. */
    public static final NodeSelector ALL = new NodeSelector(Map.of());

    public NodeSelector {
        labels = Map.copyOf(labels);
    }

    /**
     * Parses {@code "key:value,key2:value2"} (blanks around entries ignored; empty or blank = all
     * nodes). Every malformed entry is named in one {@link IllegalArgumentException}.
     */
    public static NodeSelector parse(String text) {
        if (text == null || text.isBlank()) return ALL;
        Map<String, String> labels = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        String[] entries = text.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            int colon = entry.indexOf(':');
            if (colon <= 0) {
                problems.add("lahar.scheduler.node-selector[" + i + "]: \"" + entry + "\" is not key:value");
                continue;
            }
            String key = entry.substring(0, colon).strip();
            String value = entry.substring(colon + 1).strip();
            String previous = labels.putIfAbsent(key, value);
            if (previous != null && !previous.equals(value)) {
                problems.add("lahar.scheduler.node-selector[" + i + "]: label " + key + " is already required to be \""
                        + previous + "\"");
            }
        }
        if (!problems.isEmpty()) throw new IllegalArgumentException(String.join("; ", problems));
        return new NodeSelector(labels);
    }

    public boolean selectsAll() {
        return labels.isEmpty();
    }

    public boolean matches(Node node) {
        Map<String, String> nodeLabels = node.getLabels();
        for (Map.Entry<String, String> required : labels.entrySet()) {
            if (nodeLabels == null || !required.getValue().equals(nodeLabels.get(required.getKey()))) return false;
        }
        return true;
    }

    @Override
    public String toString() {
        if (labels.isEmpty()) return "all nodes";
        StringBuilder text = new StringBuilder();
        labels.forEach((k, v) ->
                text.append(text.isEmpty() ? "" : ",").append(k).append(':').append(v));
        return text.toString();
    }
}
