package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The job's status as one controller run changes it: phase, reason and message, the pod counts,
 * version and retries, conditions and controlled resources; each phase change recorded as a
 * {@link Transition} that says what caused it. The stored conditions and resources are taken as
 * they are and copied only when the run changes them: most inputs, a pod event among them, change
 * neither.
 */
final class RunStatus {

    /** Conditions are a history; keep the record bounded. */
    private static final int MAX_CONDITIONS = 50;

    private static final Set<JobPhase> TRANSIENT =
            Set.of(JobPhase.Restarting, JobPhase.Aborting, JobPhase.Completing, JobPhase.Terminating);

    private JobPhase phase;
    private String reason;
    private String message;
    private String lastTransitionTime;
    private int minAvailable;
    private int version;
    private int retryCount;
    private String runningDuration;
    private final PodCounts counts;
    private Map<String, String> controlledResources = Map.of();
    private boolean resourcesOwned;
    private List<JobStatus.JobCondition> conditions = List.of();
    private boolean conditionsOwned;
    /** What set off the last action-driven transition, in words (see {@link JobInfo#lastCause}). */
    private String lastCause;

    private final List<Transition> transitions = new ArrayList<>();

    RunStatus(JobStatus stored, String lastCause) {
        this.lastCause = lastCause;
        this.counts = new PodCounts(stored);
        if (stored == null) {
            return;
        }
        JobState s = stored.state();
        if (s != null) {
            phase = s.phase();
            reason = s.reason();
            message = s.message();
            lastTransitionTime = s.lastTransitionTime();
        }
        minAvailable = PodCounts.nz(stored.minAvailable());
        version = PodCounts.nz(stored.version());
        retryCount = PodCounts.nz(stored.retryCount());
        runningDuration = stored.runningDuration();
        if (stored.controlledResources() != null) {
            controlledResources = stored.controlledResources();
        }
        if (stored.conditions() != null) {
            conditions = stored.conditions();
        }
    }

    /** A job submitted anew: no phase yet, version and retries back to zero, nothing counted or owned. */
    void restart(int specMinAvailable) {
        lastCause = null;
        version = 0;
        retryCount = 0;
        counts.reset();
        ownResources().clear();
        ownConditions().clear();
        minAvailable = specMinAvailable;
        phase = null;
    }

    JobPhase phase() {
        return phase;
    }

    int version() {
        return version;
    }

    /** A new version: events from the pods of the old run no longer trigger policies. */
    void bumpVersion() {
        version++;
    }

    int retryCount() {
        return retryCount;
    }

    void incrementRetry() {
        retryCount++;
    }

    /** status.minAvailable: the gang size in force. */
    int minAvailable() {
        return minAvailable;
    }

    void minAvailable(int n) {
        minAvailable = n;
    }

    void runningDuration(String d) {
        runningDuration = d;
    }

    PodCounts counts() {
        return counts;
    }

    String reason() {
        return reason;
    }

    /** Says why the job is where it is, its phase and transition time unchanged. */
    void explain(String why, String detail) {
        reason = why;
        message = detail;
    }

    /** What the job owns besides its pods (plugin objects, volume claims), by key. */
    Map<String, String> controlledResources() {
        return controlledResources;
    }

    void controlResource(String key, String value) {
        ownResources().put(key, value);
    }

    void releaseResource(String key) {
        ownResources().remove(key);
    }

    String lastCause() {
        return lastCause;
    }

    List<Transition> transitions() {
        return transitions;
    }

    /**
     * Moves the job to {@code to}: reason and message, a condition, and the transition with the
     * request and policy match that caused it.
     *
     * @param retried  the move counted a retry, which the message says (of {@code maxRetry})
     */
    void record(
            JobPhase to,
            String why,
            String detail,
            boolean retried,
            Request req,
            PolicyMatch match,
            long now,
            int maxRetry) {
        JobPhase from = phase;
        phase = to;
        String event = (req == null ? Event.OUT_OF_SYNC : req.event()).value();
        reason = why != null ? why : event;
        message = message(from, detail, retried, maxRetry, req, match);
        lastTransitionTime = Instant.ofEpochMilli(now).toString();
        ownConditions().add(new JobStatus.JobCondition(to, lastTransitionTime));
        while (conditions.size() > MAX_CONDITIONS) {
            conditions.remove(0);
        }
        transitions.add(new Transition(
                from,
                to,
                event,
                match == null ? null : match.action().value(),
                match == null ? null : match.policy(),
                reason,
                message,
                now));
    }

    /** "PodFailed: pod tf-job-worker-2 exited 137 -> RestartJob (spec.policies[0]), retry 2/3". */
    private String message(
            JobPhase from, String detail, boolean retried, int maxRetry, Request req, PolicyMatch match) {
        StringBuilder b = new StringBuilder();
        if (req != null && req.cause() != null) {
            b.append(req.event()).append(": ").append(req.cause());
        }
        if (match != null && match.action() != Action.SYNC_JOB) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append("-> ").append(match.action().value());
            if (match.policy() != null) {
                b.append(" (").append(match.policy()).append(')');
            }
        }
        if (retried) {
            b.append(", retry ").append(retryCount).append('/').append(maxRetry);
        }
        boolean caused = !b.isEmpty();
        if (caused && match.action() != Action.SYNC_JOB) {
            lastCause = b.toString();
        }
        if (detail != null) {
            if (!b.isEmpty()) {
                b.append("; ");
            }
            b.append(detail);
        }
        if (!caused && lastCause != null && from != null && TRANSIENT.contains(from)) {
            // Ending Restarting, Aborting, Completing or Terminating: say what started it.
            b.append(" (after ").append(lastCause).append(')');
        }
        return b.toString();
    }

    /** The status this run leaves. */
    JobStatus toStatus() {
        return new JobStatus(
                new JobState(phase, reason, message, lastTransitionTime),
                minAvailable,
                counts.tasks().toStatus(),
                counts.pending(),
                counts.running(),
                counts.succeeded(),
                counts.failed(),
                counts.terminating(),
                counts.unknown(),
                version,
                retryCount,
                runningDuration,
                resourcesOwned ? new TreeMap<>(controlledResources) : sorted(controlledResources),
                List.copyOf(conditions));
    }

    /** A stored map kept as it is when sorted (the status's maps are, so replay gives them byte for byte). */
    private static Map<String, String> sorted(Map<String, String> map) {
        return map instanceof SortedMap<String, String> s && s.comparator() == null ? map : new TreeMap<>(map);
    }

    private Map<String, String> ownResources() {
        if (!resourcesOwned) {
            controlledResources = new TreeMap<>(controlledResources);
            resourcesOwned = true;
        }
        return controlledResources;
    }

    private List<JobStatus.JobCondition> ownConditions() {
        if (!conditionsOwned) {
            conditions = new ArrayList<>(conditions);
            conditionsOwned = true;
        }
        return conditions;
    }
}
