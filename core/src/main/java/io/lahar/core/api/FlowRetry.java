package io.lahar.core.api;

/** Lahar extension: retry a failed flow's job up to maxRetries times, with an exponential backoff. */
public record FlowRetry(Integer maxRetries, Backoff backoff) {

    /** Durations in Go syntax ("10s", "5m"): the first delay and the largest one. */
    public record Backoff(String base, String cap) {}
}
