package io.lahar.core.scheduling.api;

import java.util.List;
import java.util.Map;

/**
 * A node selector term: all its expressions (over the node's labels) and fields (over
 * {@code metadata.name}) must match; a term with neither matches nothing.
 */
public record NodeSelectorTerm(
        List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {
    /** The one field a node selector may name. */
    public static final String NAME_FIELD = "metadata.name";

    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
        matchFields = matchFields == null ? List.of() : List.copyOf(matchFields);
    }

    public NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions) {
        this(matchExpressions, List.of());
    }

    public static NodeSelectorTerm of(NodeSelectorRequirement... requirements) {
        return new NodeSelectorTerm(List.of(requirements));
    }

    public boolean matches(Map<String, String> labels) {
        return matches(labels, labels.get(NodeInfo.HOSTNAME));
    }

    public boolean matches(Map<String, String> labels, String nodeName) {
        if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : matchExpressions) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : matchFields) {
            if (!r.matches(Map.of(NAME_FIELD, nodeName))) {
                return false;
            }
        }
        return true;
    }
}
