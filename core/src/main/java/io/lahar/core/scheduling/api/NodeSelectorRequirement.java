package io.lahar.core.scheduling.api;

import java.util.List;
import java.util.Map;

/** One match expression of a node selector term (Kubernetes' NodeSelectorRequirement). */
public record NodeSelectorRequirement(String key, Operator operator, List<String> values) {

    public enum Operator {
        In,
        NotIn,
        Exists,
        DoesNotExist,
        Gt,
        Lt
    }

    public NodeSelectorRequirement {
        values = values == null ? List.of() : List.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
        String v = labels.get(key);
        return switch (operator) {
            case In -> v != null && values.contains(v);
            case NotIn -> v == null || !values.contains(v);
            case Exists -> v != null;
            case DoesNotExist -> v == null;
            case Gt, Lt -> v != null && values.size() == 1 && compare(v, values.get(0));
        };
    }

    private boolean compare(String label, String bound) {
        try {
            long l = Long.parseLong(label);
            long b = Long.parseLong(bound);
            return operator == Operator.Gt ? l > b : l < b;
        } catch (NumberFormatException e) {
            return false; // Kubernetes: a non-integer label never matches Gt/Lt
        }
    }
}
