package io.lahar.core.job;

import java.util.Optional;

/** Kubernetes' pod phases, the only pod facts Volcano's job controller counts. */
public enum PodPhase {
    Pending,
    Running,
    Succeeded,
    Failed,
    Unknown;

    private static final Optional<PodPhase> PENDING = Optional.of(Pending);
    private static final Optional<PodPhase> RUNNING = Optional.of(Running);
    private static final Optional<PodPhase> SUCCEEDED = Optional.of(Succeeded);
    private static final Optional<PodPhase> FAILED = Optional.of(Failed);
    private static final Optional<PodPhase> UNKNOWN = Optional.of(Unknown);

    /** The phase named {@code value} exactly; empty for anything else (null included). */
    public static Optional<PodPhase> of(String value) {
        // A switch, not a stream over values(): every pod event is decoded through here.
        if (value == null) {
            return Optional.empty();
        }
        return switch (value) {
            case "Pending" -> PENDING;
            case "Running" -> RUNNING;
            case "Succeeded" -> SUCCEEDED;
            case "Failed" -> FAILED;
            case "Unknown" -> UNKNOWN;
            default -> Optional.empty();
        };
    }

    /** A pod that has stopped for good (Volcano keeps these under PodRetainPhaseSoft). */
    public boolean isTerminal() {
        return this == Succeeded || this == Failed;
    }
}
