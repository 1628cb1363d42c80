package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * When a job's newer status may replace an older one not yet sent on {@code lahar.job-status}
 * (a compacted latest-state topic: one record per job per commit is enough for its readers).
 *
 * <p>Not every older status may go unseen, though. A reader that waits for a phase — the JobFlow
 * engine's dependencies (a target Completed, Failed, …) and its taskStatus probes (the pods of a
 * task reached Running), {@code lahar watch}, the system tests — must still see it even when the
 * job moves on within one commit (Running then Completed). So the older status is replaced only
 * when what it shows — its job phase and every {@code task/pod-phase} pair (a count &gt; 0) — is
 * shown by the newer one or was already shown by the job's last record on the topic; otherwise the
 * older one is sent first. Within that, only counts change: what a probe or a phase watcher could
 * observe is never lost.
 */
final class StatusCoalescer {

    private StatusCoalescer() {}

    /**
     * Whether {@code newer} may replace {@code older} given the job's last status sent, which
     * {@code lastShown} gives (null when unknown: then the newer one alone must show it all). A
     * tombstone (null) never replaces a status. {@code lastShown} is asked only when {@code newer}
     * alone does not show all that {@code older} does: what was shown only ever adds to what may be
     * hidden, and a job's counts mostly move within one phase, so most inputs never need it (a
     * lookup the lifecycle would otherwise make on each).
     */
    static boolean replaces(Job older, Job newer, Supplier<Job> lastShown) {
        if (older == null || newer == null) {
            return older == newer;
        }
        if (showsAllOf(older, newer, null)) {
            return true;
        }
        Job shown = lastShown.get();
        return shown != null && showsAllOf(older, newer, shown);
    }

    /**
     * Whether {@code newer}, or else {@code shown} (may be null), shows {@code older}'s phase and
     * every task phase: the rule {@link #replaces} asks without and then with the last status sent.
     */
    static boolean showsAllOf(Job older, Job newer, Job shown) {
        JobPhase phase = phase(older);
        boolean phaseShown =
                Objects.equals(phase, phase(newer)) || shown != null && Objects.equals(phase, phase(shown));
        return phaseShown && showsEveryTaskPhaseOf(older, newer, shown);
    }

    private static JobPhase phase(Job job) {
        JobStatus st = job.status();
        return st == null || st.state() == null ? null : st.state().phase();
    }

    /**
     * Whether every task/pod-phase pair {@code older} shows (a count &gt; 0) has pods in {@code newer}
     * or in {@code shown} (may be null). Compared map to map: this runs on every input of a job
     * whose status is pending.
     */
    private static boolean showsEveryTaskPhaseOf(Job older, Job newer, Job shown) {
        Map<String, JobStatus.TaskState> before = taskStatusCount(older);
        Map<String, JobStatus.TaskState> after = taskStatusCount(newer);
        Map<String, JobStatus.TaskState> seen = shown == null ? Map.of() : taskStatusCount(shown);
        for (Map.Entry<String, JobStatus.TaskState> t : before.entrySet()) {
            Map<String, Integer> phases =
                    t.getValue() == null ? null : t.getValue().phase();
            if (phases == null) {
                continue;
            }
            for (Map.Entry<String, Integer> p : phases.entrySet()) {
                if (p.getValue() != null
                        && p.getValue() > 0
                        && !hasPods(after, t.getKey(), p.getKey())
                        && !hasPods(seen, t.getKey(), p.getKey())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean hasPods(Map<String, JobStatus.TaskState> counts, String task, String phase) {
        JobStatus.TaskState state = counts.get(task);
        Integer n =
                state == null || state.phase() == null ? null : state.phase().get(phase);
        return n != null && n > 0;
    }

    private static Map<String, JobStatus.TaskState> taskStatusCount(Job job) {
        JobStatus st = job.status();
        return st == null || st.taskStatusCount() == null ? Map.of() : st.taskStatusCount();
    }
}
