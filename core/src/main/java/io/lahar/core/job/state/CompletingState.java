package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Completing: the pods still alive are being killed (finished ones are kept); Completed once none is
 * pending, running or being deleted. Every action only continues the kill.
 */
public final class CompletingState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Completing;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(JobPhase.Completed);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        job.killJob(RetainPhases.SOFT, s -> Kills.whenReleased(s, JobPhase.Completed));
    }
}
