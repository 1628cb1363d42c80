package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Terminating: the pods still alive are being killed (finished ones are kept); Terminated once none is
 * pending, running or being deleted. Every action only continues the kill.
 */
public final class TerminatingState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Terminating;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(JobPhase.Terminated);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        job.killJob(RetainPhases.SOFT, s -> Kills.whenReleased(s, JobPhase.Terminated));
    }
}
