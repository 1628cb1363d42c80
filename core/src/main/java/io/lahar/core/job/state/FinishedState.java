package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Completed, Failed and Terminated (Volcano's finishedState): final phases; no action moves the job
 * out of them. Every action kills whatever is still alive, keeping the pods that Succeeded or Failed.
 */
public record FinishedState(JobPhase phase) implements PhaseState {

    public FinishedState {
        if (phase == null || !phase.isFinished()) {
            throw new IllegalArgumentException("phase: a finished phase (Completed, Failed, Terminated), not " + phase);
        }
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.noneOf(JobPhase.class);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        job.killJob(RetainPhases.SOFT, s -> false);
    }
}
