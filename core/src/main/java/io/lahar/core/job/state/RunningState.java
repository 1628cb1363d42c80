package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.EnumSet;
import java.util.Set;

/**
 * Running: the gang started. Kill-type actions as in Pending; a sync decides completion: enough
 * successes (minSuccess) complete the job at once; otherwise, once every pod has finished, the
 * job Completed if the successes meet minAvailable (and each task's minAvailable), else Failed.
 * While pods are unfinished, more of them pending than replicas - minAvailable sends the job
 * back to Pending.
 */
public final class RunningState implements PhaseState {

    @Override
    public JobPhase phase() {
        return JobPhase.Running;
    }

    @Override
    public Set<JobPhase> targets() {
        return EnumSet.of(
                JobPhase.Pending,
                JobPhase.Completed,
                JobPhase.Failed,
                JobPhase.Restarting,
                JobPhase.Aborting,
                JobPhase.Completing,
                JobPhase.Terminating);
    }

    @Override
    public void execute(StateAction action, JobActions job) {
        if (Kills.handle(action, job)) {
            return;
        }
        job.syncJob(RunningState::update);
    }

    static boolean update(StatusView s) {
        int replicas = s.totalReplicas();
        if (replicas == 0) {
            // Scaled down to zero: keep the phase, as Volcano does.
            return false;
        }
        Integer minSuccess = s.minSuccess();
        if (minSuccess != null && s.succeeded() >= minSuccess) {
            s.moveTo(
                    JobPhase.Completed,
                    "MinSuccessReached",
                    "minSuccess " + minSuccess + " reached: " + s.succeeded() + " pods succeeded");
            return true;
        }
        if (s.succeeded() + s.failed() != replicas) {
            // More pods pending than the gang can spare (say, evicted ones being re-created):
            // the gang is broken, the job waits for it again.
            if (s.pending() > replicas - s.specMinAvailable()) {
                s.moveTo(
                        JobPhase.Pending,
                        "MinAvailableLost",
                        s.pending() + " pods pending, more than the "
                                + (replicas - s.specMinAvailable()) + " the gang (minAvailable " + s.specMinAvailable()
                                + " of " + replicas + ") can spare");
                return true;
            }
            return false;
        }
        String finished =
                "all " + replicas + " pods finished (" + s.succeeded() + " succeeded, " + s.failed() + " failed)";
        if (s.specMinAvailable() >= s.totalTaskMinAvailable()) {
            for (StatusView.TaskCount task : s.tasks()) {
                if (task.minAvailable() != null && task.succeeded() < task.minAvailable()) {
                    s.moveTo(
                            JobPhase.Failed,
                            "TaskMinAvailableNotMet",
                            finished + ": task " + task.name() + " has " + task.succeeded()
                                    + " succeeded < its minAvailable " + task.minAvailable());
                    return true;
                }
            }
        }
        if (minSuccess != null && s.succeeded() < minSuccess) {
            s.moveTo(
                    JobPhase.Failed,
                    "MinSuccessNotMet",
                    finished + ": " + s.succeeded() + " succeeded < minSuccess " + minSuccess);
        } else if (s.succeeded() >= s.specMinAvailable()) {
            s.moveTo(
                    JobPhase.Completed,
                    "Completed",
                    finished + ": " + s.succeeded() + " succeeded >= minAvailable " + s.specMinAvailable());
        } else {
            s.moveTo(
                    JobPhase.Failed,
                    "MinAvailableNotMet",
                    finished + ": " + s.succeeded() + " succeeded < minAvailable " + s.specMinAvailable());
        }
        return true;
    }
}
