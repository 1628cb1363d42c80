package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.Set;

/**
 * One class per job phase (Volcano's pkg/controllers/job/state): each accepts the actions legal
 * in its phase and lists the only phases it may lead to.
 */
public sealed interface PhaseState
        permits PendingState,
                RunningState,
                RestartingState,
                CompletingState,
                AbortingState,
                AbortedState,
                TerminatingState,
                FinishedState {

    JobPhase phase();

    /** The phases this state may move the job to; any other move is a bug. */
    Set<JobPhase> targets();

    /** Carries out {@code action} in this phase. */
    void execute(StateAction action, JobActions job);

    /** The state for a phase (Volcano's NewState; an unknown phase is treated as Pending). */
    static PhaseState of(JobPhase phase) {
        if (phase == null) {
            return new PendingState();
        }
        return switch (phase) {
            case Pending -> new PendingState();
            case Running -> new RunningState();
            case Restarting -> new RestartingState();
            case Completing -> new CompletingState();
            case Aborting -> new AbortingState();
            case Aborted -> new AbortedState();
            case Terminating -> new TerminatingState();
            case Completed, Failed, Terminated -> new FinishedState(phase);
        };
    }
}
