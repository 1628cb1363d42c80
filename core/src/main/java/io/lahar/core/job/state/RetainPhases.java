package io.lahar.core.job.state;

import io.lahar.core.job.PodPhase;
import java.util.Set;

/** Which pods a kill leaves alone (Volcano's PodRetainPhaseNone / PodRetainPhaseSoft). */
public enum RetainPhases {
    /** Kill every pod: a restart starts from scratch. */
    NONE(Set.of()),
    /** Keep pods that already Succeeded or Failed: their outcome stays visible after the kill. */
    SOFT(Set.of(PodPhase.Succeeded, PodPhase.Failed));

    private final Set<PodPhase> kept;

    RetainPhases(Set<PodPhase> kept) {
        this.kept = kept;
    }

    public boolean retains(PodPhase phase) {
        return kept.contains(phase);
    }
}
