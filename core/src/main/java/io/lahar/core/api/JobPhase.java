package io.lahar.core.api;

import java.util.Arrays;
import java.util.Optional;

/** Volcano's JobPhase; the constant names are Volcano's strings. */
public enum JobPhase {
    Pending,
    Aborting,
    Aborted,
    Running,
    Restarting,
    Completing,
    Completed,
    Terminating,
    Terminated,
    Failed;

    /** Completed, Terminated, Failed and Aborted end a job's run (Aborted can be resumed). */
    public boolean isFinished() {
        return this == Completed || this == Terminated || this == Failed;
    }

    public static Optional<JobPhase> of(String value) {
        return Arrays.stream(values()).filter(p -> p.name().equals(value)).findFirst();
    }
}
