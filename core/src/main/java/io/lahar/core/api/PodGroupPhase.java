package io.lahar.core.api;

/** Volcano's PodGroupPhase; the constant names are Volcano's strings. */
public enum PodGroupPhase {
    Pending,
    Inqueue,
    Running,
    Unknown,
    Completed
}
