package io.lahar.core.api;

/**
 * A Kubernetes object Lahar understands, read from YAML or JSON by {@link Manifests}. Sealed so
 * that admission, the CLI and the engines switch over every kind exhaustively.
 */
public sealed interface Manifest permits Job, CronJob, JobTemplate, JobFlow, Queue, PodGroup, PriorityClass {

    String apiVersion();

    String kind();

    ObjectMeta metadata();

    /** The object's name, or "" when the manifest has none (admission reports it). */
    default String name() {
        return metadata() == null || metadata().name() == null ? "" : metadata().name();
    }

    /** The object's namespace, "default" when unset, as kubectl would apply it. */
    default String namespace() {
        return metadata() == null
                        || metadata().namespace() == null
                        || metadata().namespace().isEmpty()
                ? "default"
                : metadata().namespace();
    }
}
