package io.lahar.core.scheduling.api;

import java.util.List;
import java.util.Map;

/** A node selector term: all its expressions must match (an empty term matches nothing). */
public record NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions) {
    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    public static NodeSelectorTerm of(NodeSelectorRequirement... requirements) {
        return new NodeSelectorTerm(List.of(requirements));
    }

    public boolean matches(Map<String, String> labels) {
        if (matchExpressions.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : matchExpressions) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }
}
