package io.lahar.core.api;

import java.util.Arrays;
import java.util.Optional;

/** Volcano's QueueState; the constant names are Volcano's strings. */
public enum QueueState {
    Open,
    Closed,
    Closing,
    Unknown;

    public static Optional<QueueState> of(String value) {
        return Arrays.stream(values()).filter(s -> s.name().equals(value)).findFirst();
    }
}
