package io.lahar.schema;

import java.util.Optional;

/**
 * The record key of everything about one namespaced object (a Job, its pods, its pod group, a
 * JobFlow, a JobTemplate): {@code namespace/name}, UTF-8. Kubernetes names and namespaces cannot
 * contain '/', so the key splits back unambiguously.
 */
public record JobKey(String namespace, String name) {

    public JobKey {
        if (!isValidPart(namespace) || !isValidPart(name)) {
            throw new IllegalArgumentException(
                    "a key needs a non-empty namespace and name without '/': " + namespace + "/" + name);
        }
    }

    /** The key of the object named {@code name} in {@code namespace}. */
    public static JobKey of(String namespace, String name) {
        return new JobKey(namespace, name);
    }

    /**
     * Reads a key off the wire; empty when it is not of the form {@code namespace/name} (a foreign
     * producer's mistake, which the caller dead-letters instead of crashing).
     */
    public static Optional<JobKey> parse(String key) {
        if (key == null) {
            return Optional.empty();
        }
        int slash = key.indexOf('/');
        if (slash < 0) {
            return Optional.empty();
        }
        String namespace = key.substring(0, slash);
        String name = key.substring(slash + 1);
        return isValidPart(namespace) && isValidPart(name)
                ? Optional.of(new JobKey(namespace, name))
                : Optional.empty();
    }

    private static boolean isValidPart(String part) {
        return part != null && !part.isEmpty() && part.indexOf('/') < 0;
    }

    /** The key as written to Kafka: {@code namespace/name}. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
