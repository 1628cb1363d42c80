package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;

/** The kill-type actions Pending and Running share (Volcano's pending.go and running.go agree). */
final class Kills {

    private Kills() {}

    /**
     * Handles RestartJob, RestartTask, RestartPod, RestartPartition, AbortJob, TerminateJob and CompleteJob.
     *
     * @return false when {@code action} is none of them (the caller syncs instead)
     */
    static boolean handle(StateAction action, JobActions job) {
        switch (action.action()) {
            case RESTART_JOB -> job.killJob(RetainPhases.NONE, Kills::restart);
            case RESTART_TASK, RESTART_POD, RESTART_PARTITION -> job.killTarget(action.target(), Kills::restart);
            case ABORT_JOB -> job.killJob(RetainPhases.SOFT, s -> move(s, JobPhase.Aborting));
            case TERMINATE_JOB -> job.killJob(RetainPhases.SOFT, s -> move(s, JobPhase.Terminating));
            case COMPLETE_JOB -> job.killJob(RetainPhases.SOFT, s -> move(s, JobPhase.Completing));
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A restart counts against maxRetry; Restarting decides whether another run is allowed. */
    static boolean restart(StatusView s) {
        s.incrementRetry();
        s.moveTo(JobPhase.Restarting, null, null);
        return true;
    }

    private static boolean move(StatusView s, JobPhase to) {
        s.moveTo(to, null, null);
        return true;
    }

    /**
     * The transient kill phases (Aborting, Completing, Terminating) end once no pod is alive:
     * none pending, running, or still being deleted.
     */
    static boolean whenReleased(StatusView s, JobPhase to) {
        if (s.terminating() != 0 || s.pending() != 0 || s.running() != 0) {
            return false;
        }
        s.moveTo(to, "PodsReleased", "all pods released");
        return true;
    }
}
