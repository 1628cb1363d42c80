package io.lahar.core.job;

import java.util.Optional;

/**
 * Which pod events the job engine takes for a job. One rule for the streams app and
 * {@code lahar replay}, so replay skips what the engine skipped.
 */
public final class PodEvents {

    private PodEvents() {}

    /**
     * Why a pod event is not taken for the job, empty when it is: the job was never submitted, or
     * the event is about another incarnation of it (a job of the same name with another uid). An
     * event that names no uid, or a job without one, is taken.
     *
     * @param eventJobUid the uid of the job the pod belonged to, as the event says; may be null
     */
    public static Optional<String> notForJob(String eventJobUid, JobInfo job) {
        if (!job.submitted()) {
            return Optional.of("skipped: the job does not exist");
        }
        String uid = job.uid();
        if (eventJobUid != null && uid != null && !uid.equals(eventJobUid)) {
            return Optional.of("skipped: from job uid " + eventJobUid + ", the job is " + uid);
        }
        return Optional.empty();
    }
}
