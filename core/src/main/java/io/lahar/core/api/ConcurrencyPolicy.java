package io.lahar.core.api;

import java.util.Arrays;
import java.util.Optional;

/** How a CronJob treats a run that is due while an earlier one is still active; Volcano's strings. */
public enum ConcurrencyPolicy {
    /** Runs overlap. */
    Allow,
    /** The new run is skipped while one is active. */
    Forbid,
    /** The active runs are deleted and the new one created. */
    Replace;

    public static Optional<ConcurrencyPolicy> of(String value) {
        return Arrays.stream(values()).filter(p -> p.name().equals(value)).findFirst();
    }
}
