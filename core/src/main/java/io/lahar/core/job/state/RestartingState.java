package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Restarting: the old pods are going away. Once enough of them are gone for a gang to fit, the
 * job is Pending again and its pods are re-created; if the restarts used up maxRetry, it Failed.
 * A late RestartJob (say from a PodEvicted of a pod just killed) kills only if pods are still
 * alive, so it cannot wedge a job whose pods are already gone.
 */
public final class RestartingState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Restarting;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(JobPhase.Pending, JobPhase.Failed);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        switch (action.action()) {
            case SYNC_JOB -> job.syncJob(RestartingState::update);
            case RESTART_TASK, RESTART_POD, RESTART_PARTITION ->
                job.killTarget(action.target(), RestartingState::update);
            default -> {
                if (job.hasLivePods()) {
                    job.killJob(RetainPhases.NONE, RestartingState::update);
                } else {
                    job.syncJob(RestartingState::update);
                }
            }
        }
    }

    static boolean update(StatusView s) {
        if (s.retryCount() >= s.maxRetry()) {
            s.moveTo(
                    JobPhase.Failed,
                    "MaxRetryExceeded",
                    "restarted " + s.retryCount() + " times, maxRetry " + s.maxRetry() + " reached");
            return true;
        }
        if (s.totalReplicas() - s.terminating() >= s.minAvailable()) {
            s.moveTo(JobPhase.Pending, "Restarted", "old pods released, re-creating them");
            return true;
        }
        return false;
    }
}
