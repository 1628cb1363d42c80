package io.lahar.core.scheduling.api;

/** Volcano's PodGroup phases: Pending, then Inqueue (admitted by enqueue), then Running. */
public enum PodGroupPhase {
    Pending, Inqueue, Running, Unknown, Completed
}
