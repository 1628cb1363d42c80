package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * When a job's newer status may replace an older one not yet sent on {@code lahar.job-status}
 * (a compacted latest-state topic: one record per job per commit is enough for its readers).
 *
 * <p>Not every older status may go unseen, though. A reader that waits for a phase — the JobFlow
 * engine's dependencies (a target Completed, Failed, …) and its taskStatus probes (the pods of a
 * task reached Running), {@code lahar watch}, the system tests — must still see it even when the
 * job moves on within one commit (Running then Completed). So the older status is replaced only
 * when the newer one keeps the same job phase and every {@code task/pod-phase} pair the older one
 * showed (a count &gt; 0); otherwise the older one is sent first. Within that, only counts change:
 * what a probe or a phase watcher could observe is never lost.
 */
final class StatusCoalescer {

    private StatusCoalescer() {
    }

    /** Whether {@code newer} may replace {@code older}; a tombstone (null) never replaces a status. */
    static boolean replaces(Job older, Job newer) {
        if (older == null || newer == null) {
            return older == newer;
        }
        return Objects.equals(phase(older), phase(newer)) && taskPhases(newer).containsAll(taskPhases(older));
    }

    private static JobPhase phase(Job job) {
        JobStatus st = job.status();
        return st == null || st.state() == null ? null : st.state().phase();
    }

    /** The {@code task/phase} pairs with at least one pod. */
    static Set<String> taskPhases(Job job) {
        Set<String> out = new HashSet<>();
        JobStatus st = job.status();
        if (st == null || st.taskStatusCount() == null) {
            return out;
        }
        for (Map.Entry<String, JobStatus.TaskState> t : st.taskStatusCount().entrySet()) {
            if (t.getValue() == null || t.getValue().phase() == null) {
                continue;
            }
            t.getValue().phase().forEach((p, n) -> {
                if (n != null && n > 0) {
                    out.add(t.getKey() + "/" + p);
                }
            });
        }
        return out;
    }
}
