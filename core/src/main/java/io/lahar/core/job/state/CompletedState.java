package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;

import java.util.EnumSet;
import java.util.Set;

/**
 * Completed: a final phase; no action moves the job out of it. Every action kills whatever is still
 * alive, keeping the pods that Succeeded or Failed (Volcano's finishedState).
 */
public final class CompletedState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Completed;
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
