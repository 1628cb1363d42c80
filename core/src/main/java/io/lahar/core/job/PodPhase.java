package io.lahar.core.job;

import java.util.Arrays;
import java.util.Optional;

/** Kubernetes' pod phases, the only pod facts Volcano's job controller counts. */
public enum PodPhase {
    Pending, Running, Succeeded, Failed, Unknown;

    public static Optional<PodPhase> of(String value) {
        return Arrays.stream(values()).filter(p -> p.name().equals(value)).findFirst();
    }

    /** A pod that has stopped for good (Volcano keeps these under PodRetainPhaseSoft). */
    public boolean isTerminal() {
        return this == Succeeded || this == Failed;
    }
}
