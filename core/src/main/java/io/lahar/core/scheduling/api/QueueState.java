package io.lahar.core.scheduling.api;

/** Volcano's queue states: only an Open queue takes new work. */
public enum QueueState {
    Open, Closed, Closing, Unknown
}
