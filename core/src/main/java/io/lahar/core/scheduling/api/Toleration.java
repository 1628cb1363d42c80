package io.lahar.core.scheduling.api;

/**
 * A pod toleration, as Kubernetes matches it: an empty key with operator Exists tolerates every
 * taint; a null effect matches every effect.
 */
public record Toleration(String key, Operator operator, String value, TaintEffect effect) {

    public enum Operator {
        Equal,
        Exists
    }

    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null ? Operator.Equal : operator;
        value = value == null ? "" : value;
    }

    public static Toleration exists(String key, TaintEffect effect) {
        return new Toleration(key, Operator.Exists, "", effect);
    }

    public static Toleration equal(String key, String value, TaintEffect effect) {
        return new Toleration(key, Operator.Equal, value, effect);
    }

    public boolean tolerates(Taint taint) {
        if (effect != null && effect != taint.effect()) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return operator == Operator.Exists || value.equals(taint.value());
    }
}
