package io.lahar.core.scheduling.api;

/** The scheduler's view of a pod, as Volcano's {@code api.TaskStatus}. */
public enum TaskStatus {
    /** Waiting for a node. */
    Pending,
    /** Given a node in this session, not yet sent to be bound. */
    Allocated,
    /** Promised a node that frees up once its releasing pods are gone. */
    Pipelined,
    /** A bind has been sent but not yet confirmed. */
    Binding,
    /** Bound to a node, not yet running. */
    Bound,
    Running,
    /** Being evicted: still holds its node's resources until it is gone. */
    Releasing,
    Succeeded,
    Failed,
    Unknown;

    /** Volcano's AllocatedStatus: the task holds its node (and counts towards its gang). */
    /** Volcano's PreemptableStatus: only a task that holds its node (Bound or Running) is a victim. */
    public boolean isPreemptable() {
        return this == Bound || this == Running;
    }

    public boolean isAllocated() {
        return this == Allocated || this == Binding || this == Bound || this == Running;
    }

    /** Whether the task uses its node's resources (terminated and pending tasks do not). */
    public boolean occupiesNode() {
        return isAllocated() || this == Releasing || this == Unknown;
    }
}
