package io.lahar.scheduler.loop;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.cache.SchedulerCache;
import io.lahar.schema.Bind;
import io.lahar.schema.Evict;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns a session's result into the records of {@code lahar.scheduler-decisions} and assumes them
 * in the cache at once (bindings hold their nodes, evictions release theirs), so the next session
 * sees them even before they are read back. Nominations are not written: a nominated task is not
 * bound, and the next session decides again.
 *
 * <p>A pod group's status is written only when it changed (phase, condition, counts), so an idle
 * system does not fill the topic once a second. A waiting gang's message whose figures alone moved
 * (a queue's allocated amount changes with every bind elsewhere) is the same cause: it is written
 * again only once the written one is {@link #FIGURES_REFRESH} old (decision 068).
 */
public final class SessionDecisions {

    /**
     * What one session wrote, the pending groups by reason for the metrics, and by queue the
     * phases its pod groups entered (a status written in a phase other than the group's last).
     */
    public record Outcome(
            List<SchedulerDecision> decisions,
            int placements,
            int evictions,
            Map<String, Integer> pendingByReason,
            Map<String, Map<String, Integer>> entered) {}

    private SessionDecisions() {}

    public static Outcome apply(
            SchedulerCache cache, Snapshot snapshot, SessionResult result, long epoch, String session, Instant now) {
        List<SchedulerDecision> out = new ArrayList<>();
        for (SessionResult.Binding b : result.bindings()) {
            int version = cache.jobVersion(b.job(), b.task());
            out.add(decision(cache, b.job(), epoch, session, now, new Bind(b.task(), b.node(), b.action(), version)));
            cache.assumeBinding(b.job(), b.task(), b.node(), version);
        }
        for (SessionResult.Eviction e : result.evictions()) {
            int version = cache.jobVersion(e.job(), e.task());
            out.add(decision(
                    cache, e.job(), epoch, session, now, new Evict(e.task(), e.reason(), e.action(), version)));
            cache.assumeEviction(e.job(), e.task());
        }
        Map<String, Integer> pendingByReason = new TreeMap<>();
        Map<String, Map<String, Integer>> entered = new TreeMap<>();
        for (JobInfo job : snapshot.jobs()) {
            String key = job.key();
            PodGroupPhase phase = result.phaseOf(key, job.phase());
            SessionResult.PodGroupCondition c = result.conditions().get(key);
            if (c != null
                    && SessionResult.PodGroupCondition.UNSCHEDULABLE.equals(c.type())
                    && phase != PodGroupPhase.Running
                    && phase != PodGroupPhase.Completed) {
                pendingByReason.merge(c.reason(), 1, Integer::sum);
            }
            PodGroupStatus status = status(job, phase, c, session, now);
            PodGroupStatus last = cache.lastStatus(key);
            if (!sameStatus(last, status)) {
                if (last == null || !last.getPhase().toString().equals(phase.name())) {
                    entered.computeIfAbsent(job.queue(), q -> new TreeMap<>()).merge(phase.name(), 1, Integer::sum);
                }
                out.add(decision(cache, key, epoch, session, now, status));
                cache.recordStatus(key, status);
            }
        }
        return new Outcome(out, result.bindings().size(), result.evictions().size(), pendingByReason, entered);
    }

    private static PodGroupStatus status(
            JobInfo job, PodGroupPhase phase, SessionResult.PodGroupCondition c, String session, Instant now) {
        int running = 0, succeeded = 0, failed = 0;
        for (TaskInfo t : job.tasks()) {
            switch (t.status()) {
                case Running -> running++;
                case Succeeded -> succeeded++;
                case Failed -> failed++;
                default -> {
                    // pending, binding and releasing pods are in none of the counts, as in Volcano
                }
            }
        }
        List<PodGroupCondition> conditions = c == null
                ? List.of()
                : List.of(new PodGroupCondition(c.type(), c.status(), session, now, c.reason(), c.message()));
        return new PodGroupStatus(phase.name(), conditions, running, succeeded, failed);
    }

    /** Equal but for the session and time stamps of the condition. */
    static boolean sameStatus(PodGroupStatus a, PodGroupStatus b) {
        if (a == null || b == null) return a == b;
        if (!a.getPhase().equals(b.getPhase())
                || a.getRunning() != b.getRunning()
                || a.getSucceeded() != b.getSucceeded()
                || a.getFailed() != b.getFailed()
                || a.getConditions().size() != b.getConditions().size()) {
            return false;
        }
        for (int i = 0; i < a.getConditions().size(); i++) {
            PodGroupCondition x = a.getConditions().get(i);
            PodGroupCondition y = b.getConditions().get(i);
            if (!x.getType().equals(y.getType())
                    || !x.getStatus().equals(y.getStatus())
                    || !Objects.equals(x.getReason(), y.getReason())
                    || !sameMessage(x, y)) {
                return false;
            }
        }
        return true;
    }

    /** How long a message that changed only in its figures is left as it was written. */
    static final Duration FIGURES_REFRESH = Duration.ofSeconds(10);

    /**
     * The same cause: equal messages, or messages with one {@link SessionResult.PodGroupCondition#cause(String)}
     * (only the figures moved, as a queue's allocated amount does every session while a gang waits)
     * written less than {@link #FIGURES_REFRESH} apart.
     */
    private static boolean sameMessage(PodGroupCondition x, PodGroupCondition y) {
        if (Objects.equals(x.getMessage(), y.getMessage())) return true;
        if (x.getMessage() == null || y.getMessage() == null) return false;
        if (!SessionResult.PodGroupCondition.sameCause(x.getMessage(), y.getMessage())) {
            return false;
        }
        return Duration.between(x.getLastTransitionTime(), y.getLastTransitionTime())
                        .abs()
                        .compareTo(FIGURES_REFRESH)
                < 0;
    }

    private static SchedulerDecision decision(
            SchedulerCache cache, String key, long epoch, String session, Instant now, Object decision) {
        int slash = key.indexOf('/');
        return SchedulerDecision.newBuilder()
                .setNamespace(key.substring(0, slash))
                .setJob(key.substring(slash + 1))
                .setPodGroup(cache.podGroupName(key))
                .setEpoch(epoch)
                .setSession(session)
                .setTime(now)
                .setDecision(decision)
                .setPodGroupVersion(cache.podGroupVersion(key))
                .build();
    }
}
