package io.lahar.core.job.state;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Aborted: stopped, its finished pods kept, but not over: ResumeJob restarts it (counting a
 * retry). Any other action only makes sure nothing runs.
 */
public final class AbortedState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Aborted;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(JobPhase.Restarting);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        if (action.action() == Action.RESUME_JOB) {
            job.killJob(RetainPhases.SOFT, Kills::restart);
        } else {
            job.killJob(RetainPhases.SOFT, s -> false);
        }
    }
}
