package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Aborting: pods are being killed, keeping those that already Succeeded or Failed. Aborted once
 * none is alive. ResumeJob restarts it at once (a resume counts as a retry).
 */
public final class AbortingState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Aborting;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(JobPhase.Aborted, JobPhase.Restarting);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        if (action.action() == io.lahar.core.api.Action.RESUME_JOB) {
            job.killJob(RetainPhases.SOFT, Kills::restart);
        } else {
            job.killJob(RetainPhases.SOFT, s -> Kills.whenReleased(s, JobPhase.Aborted));
        }
    }
}
