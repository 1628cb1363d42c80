package io.lahar.core.job;

import java.util.Optional;

/**
 * Which of the scheduler's pod-group decisions the job engine takes for a job. One rule for the
 * streams app and {@code lahar replay}, so replay drops what the engine dropped.
 */
public final class PodGroupDecisions {

    private PodGroupDecisions() {}

    /**
     * Why a pod-group status decision is not taken for the job, empty when it is: the job does not
     * exist (never submitted, or deleted), a decision of an older scheduler epoch than the newest
     * the job has taken (the fenced instance's), about another pod group, or about an earlier
     * incarnation of the job's group (made before a restart; the new group must pass the
     * Pending → Inqueue gate on its own).
     *
     * @param epoch           the deciding scheduler's epoch
     * @param podGroup        the pod group decided on
     * @param podGroupVersion the job version of that pod group; null when the decision does not say
     * @param jobEpoch        the newest scheduler epoch the job has taken a decision of
     * @param job             the job's state
     */
    public static Optional<String> notForJob(
            long epoch, String podGroup, Integer podGroupVersion, long jobEpoch, JobInfo job) {
        if (!job.live()) {
            return Optional.of("skipped: the job does not exist");
        }
        if (epoch < jobEpoch) {
            return Optional.of("dropped: epoch older than " + jobEpoch);
        }
        if (!PodGroups.name(job.job()).equals(podGroup)) {
            return Optional.of("skipped: not the job's pod group");
        }
        if (podGroupVersion != null && podGroupVersion != job.version()) {
            return Optional.of("skipped: about the pod group of job version " + podGroupVersion
                    + ", the job is at version " + job.version());
        }
        return Optional.empty();
    }
}
