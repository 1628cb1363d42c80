package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the engine knows about one job (Volcano's JobInfo plus the controller's timers):
 * the admitted job with its status, the pods by name, the pending timers, the pod group as last
 * asked for and as last seen. Immutable and plain, so the streams app can store it as JSON.
 *
 * @param job            the admitted job; its {@code status} is the engine's; null before submit
 * @param pods           the job's pods by name, any version (sorted, unmodifiable)
 * @param timers         delayed actions and the TTL, in the order they were armed
 * @param podGroupSpec   the pod group spec last sent, null when none exists
 * @param podGroupPhase  the pod group's phase as last seen, null when none exists
 * @param configMaps     plugin ConfigMaps as last sent, so unchanged data is not sent again
 * @param createdAt      when the job was submitted (epoch ms)
 * @param deleted        the job was deleted (by a user or by its TTL): nothing happens any more
 * @param lastCause      what set off the last action-driven transition, in words; the transition
 *                       that ends a transient phase repeats it, so its message says why
 */
public record JobInfo(
        Job job,
        SortedMap<String, JobPod> pods,
        List<Timer> timers,
        PodGroup.PodGroupSpec podGroupSpec,
        PodGroupPhase podGroupPhase,
        Map<String, Map<String, String>> configMaps,
        long createdAt,
        boolean deleted,
        String lastCause) {

    public JobInfo {
        pods = FrozenPods.copyOf(pods);
        timers = timers == null ? List.of() : List.copyOf(timers);
        // Sorted maps: the state is serialised, and replay must give it byte for byte.
        TreeMap<String, Map<String, String>> cms = new TreeMap<>();
        if (configMaps != null) {
            configMaps.forEach((k, v) -> cms.put(k, v == null ? new TreeMap<>() : new TreeMap<>(v)));
        }
        configMaps = cms;
    }

    /** The state before the job is submitted. */
    public static JobInfo empty() {
        return new JobInfo(null, null, null, null, null, null, 0, false, null);
    }

    public boolean submitted() {
        return job != null;
    }

    /** Submitted and not deleted: the job commands, pod groups and timers are about. */
    public boolean live() {
        return job != null && !deleted;
    }

    /** The job's uid, null before its submission or when its manifest has none. */
    public String uid() {
        return job == null || job.metadata() == null ? null : job.metadata().uid();
    }

    /**
     * When the next timer is due (epoch ms), empty when none is armed: the streams app keys its
     * timer index on this, so a tick wakes only the jobs that have something due.
     */
    public java.util.OptionalLong nextDue() {
        // A loop, not a stream: the streams app asks twice per input, and most jobs have no timer.
        if (timers.isEmpty()) {
            return java.util.OptionalLong.empty();
        }
        long due = Long.MAX_VALUE;
        for (Timer t : timers) {
            due = Math.min(due, t.due());
        }
        return java.util.OptionalLong.of(due);
    }

    /** The same state with {@code pods} instead (the streams-app keeps a job's pods apart from the rest). */
    public JobInfo withPods(Map<String, JobPod> pods) {
        return new JobInfo(
                job,
                FrozenPods.copyOf(pods),
                timers,
                podGroupSpec,
                podGroupPhase,
                configMaps,
                createdAt,
                deleted,
                lastCause);
    }

    /** The job's version (bumped by each kill), 0 before it has a status. */
    public int version() {
        return job == null || job.status() == null || job.status().version() == null
                ? 0
                : job.status().version();
    }

    /** The job's retry count, 0 before it has a status. */
    public int retryCount() {
        return job == null || job.status() == null || job.status().retryCount() == null
                ? 0
                : job.status().retryCount();
    }

    public JobPhase phase() {
        return job == null || job.status() == null || job.status().state() == null
                ? null
                : job.status().state().phase();
    }
}
