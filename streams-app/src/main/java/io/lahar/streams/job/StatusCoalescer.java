package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;

import java.util.Map;
import java.util.Objects;

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
        return Objects.equals(phase(older), phase(newer)) && showsEveryTaskPhaseOf(newer, older);
    }

    private static JobPhase phase(Job job) {
        JobStatus st = job.status();
        return st == null || st.state() == null ? null : st.state().phase();
    }

    /**
     * Whether every task/pod-phase pair {@code older} shows (a count &gt; 0) has pods in {@code newer}
     * too. Compared map to map: this runs on every input of a job whose status is pending.
     */
    private static boolean showsEveryTaskPhaseOf(Job newer, Job older) {
        Map<String, JobStatus.TaskState> before = taskStatusCount(older);
        Map<String, JobStatus.TaskState> after = taskStatusCount(newer);
        for (Map.Entry<String, JobStatus.TaskState> t : before.entrySet()) {
            Map<String, Integer> shown = t.getValue() == null ? null : t.getValue().phase();
            if (shown == null) {
                continue;
            }
            JobStatus.TaskState now = after.get(t.getKey());
            Map<String, Integer> still = now == null || now.phase() == null ? Map.of() : now.phase();
            for (Map.Entry<String, Integer> p : shown.entrySet()) {
                if (p.getValue() != null && p.getValue() > 0) {
                    Integer n = still.get(p.getKey());
                    if (n == null || n <= 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static Map<String, JobStatus.TaskState> taskStatusCount(Job job) {
        JobStatus st = job.status();
        return st == null || st.taskStatusCount() == null ? Map.of() : st.taskStatusCount();
    }
}
