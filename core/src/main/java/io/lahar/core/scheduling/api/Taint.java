package io.lahar.core.scheduling.api;

import java.util.Objects;

/** A node taint; {@code value} may be empty. */
public record Taint(String key, String value, TaintEffect effect) {
    public Taint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(effect, "effect");
        value = value == null ? "" : value;
    }

    @Override
    public String toString() {
        return "{" + key + (value.isEmpty() ? "" : ": " + value) + "}";
    }
}
