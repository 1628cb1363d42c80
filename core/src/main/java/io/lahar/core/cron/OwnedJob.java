package io.lahar.core.cron;

import io.lahar.core.api.JobPhase;

/**
 * A job a CronJob created and that exists (Volcano's controller lists them from its job
 * informer): when it was scheduled and created, and what its status last said.
 *
 * @param phase      null until the job's first status arrives (it is Pending then)
 * @param finishedAt the job's {@code state.lastTransitionTime} once it is finished (epoch ms)
 */
public record OwnedJob(String name, long scheduledTime, long createdAt, JobPhase phase, Long finishedAt, String uid) {

    /** Completed, Failed or Terminated: Volcano's isJobFinished. */
    public boolean finished() {
        return phase != null && phase.isFinished();
    }

    OwnedJob observed(JobPhase newPhase, Long lastTransitionTime, String newUid, long time) {
        Long end =
                newPhase.isFinished() ? (lastTransitionTime == null ? Long.valueOf(time) : lastTransitionTime) : null;
        return new OwnedJob(name, scheduledTime, createdAt, newPhase, end, newUid == null ? uid : newUid);
    }
}
