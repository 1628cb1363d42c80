package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobState;
import io.lahar.core.api.OwnerReference;
import io.lahar.core.api.Timestamps;
import io.lahar.core.cron.CronJobs;
import io.lahar.schema.Topics;
import io.lahar.streams.cron.CronObservation;
import java.util.Optional;

/**
 * What the job lifecycle hands to the CronJob engine about the jobs a CronJob created (their
 * controller owner reference is a batch.volcano.sh CronJob): their phase with each status it
 * sends, and their end with the tombstone, keyed by the CronJob ({@code namespace/cronjob}), to
 * {@link #node()}, the repartition that brings them to the CronJob's task, in the same
 * transaction. As for the JobFlows ({@link FlowStatusFeed}), the lifecycle knows whose job it is
 * before it writes.
 */
public record CronStatusFeed(String node) {

    /** A status of {@code job}, when it is a CronJob's. */
    Optional<Keyed> observed(Job job, long time) {
        // Every status record passes here: most jobs are no CronJob's, and cost only this look at their owners.
        Optional<OwnerReference> owner = CronJobs.owner(job);
        JobState state = job.status() == null ? null : job.status().state();
        if (owner.isEmpty() || state == null || state.phase() == null) {
            return Optional.empty();
        }
        Long lastTransition = state.lastTransitionTime() == null
                ? null
                : Timestamps.parse(state.lastTransitionTime()).toEpochMilli();
        return Optional.of(keyed(
                job,
                owner.get(),
                new CronObservation(
                        job.name(), uid(job), owner.get().uid(), state.phase(), lastTransition, false, time)));
    }

    /** {@code job} was deleted, when it is a CronJob's. */
    Optional<Keyed> gone(Job job, long time) {
        return CronJobs.owner(job)
                .map(o -> keyed(job, o, new CronObservation(job.name(), uid(job), o.uid(), null, null, true, time)));
    }

    private static Keyed keyed(Job job, OwnerReference owner, CronObservation o) {
        return new Keyed(Topics.jobKey(job.namespace(), owner.name()), o.bytes());
    }

    private static String uid(Job job) {
        return job.metadata() == null ? null : job.metadata().uid();
    }

    /** An observation under its CronJob's key. */
    record Keyed(String cronKey, byte[] observation) {}
}
