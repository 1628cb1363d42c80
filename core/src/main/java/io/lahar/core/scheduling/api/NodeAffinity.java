package io.lahar.core.scheduling.api;

import java.util.List;
import java.util.Map;

/**
 * Required node affinity ({@code requiredDuringSchedulingIgnoredDuringExecution}): the terms are
 * ORed; no terms means no constraint.
 */
public record NodeAffinity(List<NodeSelectorTerm> required) {
    public static final NodeAffinity NONE = new NodeAffinity(List.of());

    public NodeAffinity {
        required = required == null ? List.of() : List.copyOf(required);
    }

    public static NodeAffinity of(NodeSelectorTerm... terms) {
        return new NodeAffinity(List.of(terms));
    }

    public boolean isEmpty() {
        return required.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        return matches(labels, labels.get(NodeInfo.HOSTNAME));
    }

    public boolean matches(Map<String, String> labels, String nodeName) {
        if (required.isEmpty()) {
            return true;
        }
        for (NodeSelectorTerm t : required) {
            if (t.matches(labels, nodeName)) {
                return true;
            }
        }
        return false;
    }
}
