package io.lahar.core.scheduling.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes' label selector ({@code matchLabels} and {@code matchExpressions}, ANDed), as
 * {@code metav1.LabelSelectorAsSelector} reads it: an absent selector selects nothing
 * ({@link #NOTHING}), an empty one everything.
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions, boolean nothing) {

    /** An absent selector: matches no labels at all. */
    public static final LabelSelector NOTHING = new LabelSelector(Map.of(), List.of(), true);
    /** An empty selector ({@code {}}): matches every set of labels. */
    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of(), false);

    public enum Operator {
        In,
        NotIn,
        Exists,
        DoesNotExist
    }

    /** One {@code matchExpressions} entry. */
    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement {
            values = values == null ? List.of() : List.copyOf(values);
        }

        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (operator) {
                case In -> v != null && values.contains(v);
                case NotIn -> v == null || !values.contains(v);
                case Exists -> v != null;
                case DoesNotExist -> v == null;
            };
        }
    }

    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(new TreeMap<>(matchLabels));
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    public static LabelSelector of(Map<String, String> matchLabels) {
        return new LabelSelector(matchLabels, List.of(), false);
    }

    /** Selects everything (Kubernetes' {@code selector.Empty()}). */
    public boolean isEmpty() {
        return !nothing && matchLabels.isEmpty() && matchExpressions.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        if (nothing) return false;
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) return false;
        }
        for (Requirement r : matchExpressions) {
            if (!r.matches(labels)) return false;
        }
        return true;
    }

    /**
     * This selector with {@code key In (value)} added for each given label, as the API server
     * merges a term's {@code matchLabelKeys} with the pod's own label values ({@code NotIn} for
     * {@code mismatchLabelKeys}).
     */
    public LabelSelector withRequirements(Map<String, String> labels, Operator op) {
        if (labels.isEmpty() || nothing) return this;
        List<Requirement> rs = new ArrayList<>(matchExpressions);
        labels.forEach((k, v) -> rs.add(new Requirement(k, op, List.of(v))));
        return new LabelSelector(matchLabels, rs, false);
    }
}
