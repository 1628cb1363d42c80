package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Pending: waiting for the gang. Kill-type actions leave through their transient phase; any
 * other action syncs, and the job runs once minAvailable pods are running or finished.
 */
public final class PendingState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Pending;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(
                JobPhase.Running, JobPhase.Restarting, JobPhase.Aborting, JobPhase.Completing, JobPhase.Terminating);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        if (Kills.handle(action, job)) {
            return;
        }
        job.syncJob(PendingState::update);
    }

    static boolean update(StatusView s) {
        int started = s.running() + s.succeeded() + s.failed();
        if (s.specMinAvailable() <= started) {
            s.moveTo(
                    JobPhase.Running,
                    "MinAvailableReached",
                    "minAvailable " + s.specMinAvailable()
                            + " reached: " + s.running() + " running, " + s.succeeded() + " succeeded, "
                            + s.failed() + " failed");
            return true;
        }
        return false;
    }
}
