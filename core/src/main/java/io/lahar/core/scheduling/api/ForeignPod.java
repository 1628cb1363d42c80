package io.lahar.core.scheduling.api;

import java.util.Objects;

/**
 * A pod on a node that is not a task of the snapshot's pod groups (another scheduler's, a daemon
 * set's): its resources are in the node's {@code otherUsed}; its namespace and spec are what
 * inter-pod affinity, topology spread and host ports need to see it.
 */
public record ForeignPod(String namespace, PodSpec spec) {
    public ForeignPod {
        namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        Objects.requireNonNull(spec, "spec");
    }
}
