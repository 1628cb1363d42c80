package io.lahar.core.scheduling.plugins;

import io.lahar.core.api.GoDuration;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.scheduling.api.DisruptionBudget;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Volcano's tdm plugin (time-division multiplexing): nodes labelled {@code volcano.sh/revocable-zone:
 * <zone>} are lent to revocable pods (revocable zone "*", or preemptable) while the zone's daily
 * window is open, and taken back when it closes.
 *
 * <ul>
 *   <li>predicate: a revocable node takes only revocable pods, and only while its zone's window is
 *       open (a zone the arguments do not name never opens);
 *   <li>node order: a revocable pod scores 100 on an open revocable node, so it goes there first;
 *   <li>preemptable: a preemptable or revocable preemptor takes nothing; another takes running
 *       preemptable tasks on nodes of no zone only, per job within its disruption budget;
 *   <li>victim tasks (the shuffle action): once a zone's window has closed, its nodes' running
 *       preemptable tasks, per job within its disruption budget, at most once per evict period;
 *   <li>job order: jobs that are not preemptable first; pipelined: Volcano's counting of ready,
 *       pipelined and pending best-effort tasks; starving: a job that is not preemptable and has
 *       pending tasks.
 * </ul>
 *
 * <p>Arguments: {@code tdm.revocable-zone.<zone>: "HH:MM-HH:MM"} (a window ending at or before its
 * start ends the next day) and {@code tdm.evict.period} (a Go duration, default 1m), each refused
 * with its path when it cannot be read. The windows are read in UTC at the session's time (decision
 * 054); without a time no window is open and nothing is evicted.
 */
public final class Tdm implements Plugin {
    public static final String NAME = "tdm";
    public static final String REVOCABLE_ZONE_PREFIX = "tdm.revocable-zone.";
    public static final String EVICT_PERIOD = "tdm.evict.period";
    /** The zone the windows' clock times are read in (decision 054). */
    public static final ZoneOffset TIME_ZONE = ZoneOffset.UTC;

    static final Duration DEFAULT_EVICT_PERIOD = Duration.ofMinutes(1);
    static final int DEFAULT_POD_EVICT_NUM = 1;
    static final double MAX_NODE_SCORE = 100;

    /**
     * When victims were last looked for (Volcano's lastEvictAt, a variable of its scheduler process):
     * kept by the registry, so across the sessions of one scheduler.
     */
    public static final class LastEviction {
        private Instant at;
    }

    private final Map<String, Window> revocableZone = new TreeMap<>();
    private final Duration evictPeriod;
    private final LastEviction lastEviction;

    public Tdm(Arguments args) {
        this(args, new LastEviction());
    }

    public Tdm(Arguments args, LastEviction lastEviction) {
        this.lastEviction = lastEviction;
        for (String key : args.values().keySet()) {
            if (!key.startsWith(REVOCABLE_ZONE_PREFIX)) continue;
            String zone = key.substring(REVOCABLE_ZONE_PREFIX.length());
            if (zone.isEmpty()) {
                throw new IllegalArgumentException("argument " + key + ": names no zone (" + REVOCABLE_ZONE_PREFIX
                        + "<zone>, the zone a node's volcano.sh/revocable-zone label names)");
            }
            revocableZone.put(zone, Window.parse(key, args.getString(key, "")));
        }
        String period = args.getString(EVICT_PERIOD, null);
        if (period == null) {
            evictPeriod = DEFAULT_EVICT_PERIOD;
        } else {
            Duration d = GoDuration.parse(period)
                    .orElseThrow(() -> new IllegalArgumentException(
                            "argument " + EVICT_PERIOD + ": not a duration (e.g. 1m30s), got \"" + period + "\""));
            if (d.isNegative()) {
                throw new IllegalArgumentException(
                        "argument " + EVICT_PERIOD + ": must not be negative, got \"" + period + "\"");
            }
            evictPeriod = d;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * What of a Job's, pod's or pod group's annotations the plugin could never carry out, by
     * annotation: a revocable zone other than "*" (Volcano reads any other as none), a disruption
     * budget that is no positive integer or percentage from 1% to 99%, and both budgets at once
     * (Volcano's pod admission refuses these); empty when none.
     */
    public static Map<String, String> annotationProblems(Map<String, String> annotations) {
        Map<String, String> out = new LinkedHashMap<>();
        if (annotations == null) return out;
        String zone = annotations.get(PodLabels.REVOCABLE_ZONE);
        if (zone != null && !zone.equals(TaskInfo.ANY_REVOCABLE_ZONE)) {
            out.put(PodLabels.REVOCABLE_ZONE, "only \"*\" (any revocable zone) is carried out, got \"" + zone + "\"");
        }
        for (String key : List.of(PodLabels.JDB_MIN_AVAILABLE, PodLabels.JDB_MAX_UNAVAILABLE)) {
            String value = annotations.get(key);
            String why = value == null ? null : DisruptionBudget.check(value);
            if (why != null) out.put(key, why);
        }
        if (annotations.containsKey(PodLabels.JDB_MIN_AVAILABLE)
                && annotations.containsKey(PodLabels.JDB_MAX_UNAVAILABLE)) {
            out.putIfAbsent(
                    PodLabels.JDB_MAX_UNAVAILABLE,
                    "only one of " + PodLabels.JDB_MIN_AVAILABLE + " and " + PodLabels.JDB_MAX_UNAVAILABLE
                            + " may be given (the min-available one is the budget)");
        }
        return out;
    }

    /**
     * A zone's daily window, as Volcano's parseRevocableZone reads it: "H:MM-H:MM" or "HH:MM-HH:MM"
     * after trimming, hours 0–23.
     */
    record Window(LocalTime start, LocalTime end, String raw) {
        private static final Pattern FORMAT = Pattern.compile("(\\d{1,2}):(\\d{2})-(\\d{1,2}):(\\d{2})");

        static Window parse(String key, String raw) {
            Matcher m = FORMAT.matcher(raw.strip());
            if (m.matches()) {
                int h1 = Integer.parseInt(m.group(1));
                int m1 = Integer.parseInt(m.group(2));
                int h2 = Integer.parseInt(m.group(3));
                int m2 = Integer.parseInt(m.group(4));
                if (h1 < 24 && m1 < 60 && h2 < 24 && m2 < 60) {
                    return new Window(LocalTime.of(h1, m1), LocalTime.of(h2, m2), raw.strip());
                }
            }
            throw new IllegalArgumentException("argument " + key
                    + ": expected a daily window \"HH:MM-HH:MM\" in UTC (e.g. 10:00-21:00), got \"" + raw + "\"");
        }

        /** Where the window starts on now's day (Volcano's parseRevocableZone). */
        Instant start(Instant now) {
            return now.atOffset(TIME_ZONE).toLocalDate().atTime(start).toInstant(TIME_ZONE);
        }

        /** Where it ends: on now's day, or on the next when the end is not after the start. */
        Instant end(Instant now) {
            LocalDate day = now.atOffset(TIME_ZONE).toLocalDate();
            return (start.isBefore(end) ? day : day.plusDays(1)).atTime(end).toInstant(TIME_ZONE);
        }

        /** Whether {@code now} is within [start, end], to the second (Volcano's availableRevocableZone). */
        boolean isOpen(Instant now) {
            long t = now.getEpochSecond();
            return t >= start(now).getEpochSecond() && t <= end(now).getEpochSecond();
        }
    }

    /** Null when the zone's window is open at the session's time, else why not. */
    private String unavailable(String zone, Instant now) {
        Window w = revocableZone.get(zone);
        if (w == null) return "revocable zone " + zone + " is not configured in the tdm plugin";
        if (now == null) return "the session's time is not known, so revocable zone " + zone + " is not open";
        if (!w.isOpen(now)) return "current time beyond revocable zone " + zone + ":" + w.raw() + " (UTC)";
        return null;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        Instant now = ssn.now();
        ssn.addPredicateFn(NAME, (task, node) -> {
            String zone = node.info().revocableZone();
            if (zone.isEmpty()) return null;
            String closed = unavailable(zone, now);
            if (closed != null) return closed;
            return task.info().revocableZone().isEmpty() ? "not allow to dispatch to revocable node" : null;
        });
        ssn.addNodeOrderFn(NAME, (task, node) -> {
            String zone = node.info().revocableZone();
            if (zone.isEmpty() || unavailable(zone, now) != null) return 0;
            return task.info().revocableZone().isEmpty() ? 0 : MAX_NODE_SCORE;
        });
        ssn.addPreemptableFn(NAME, (preemptor, preemptees) -> {
            // A preemptable or revocable workload may not take others' nodes.
            if (preemptor.info().preemptable()
                    || !preemptor.info().revocableZone().isEmpty()) return List.of();
            Map<SessionJob, List<SessionTask>> byJob = new LinkedHashMap<>();
            for (SessionTask t : preemptees) {
                if (!t.info().preemptable() || t.status() != TaskStatus.Running) continue;
                if (t.node() == null || !t.node().info().revocableZone().isEmpty()) continue;
                byJob.computeIfAbsent(t.job(), j -> new ArrayList<>()).add(t);
            }
            return maxVictims(byJob);
        });
        ssn.addVictimTasksFns(NAME, List.of(tasks -> victims(ssn, now)));
        ssn.addJobOrderFn(NAME, (l, r) -> {
            if (l.info().preemptable() == r.info().preemptable()) return 0;
            return !l.info().preemptable() ? -1 : 1;
        });
        ssn.addJobPipelinedFn(NAME, j -> j.minMemberPipelined() ? Vote.PERMIT : Vote.reject("job not pipelined"));
        ssn.addJobStarvingFn(NAME, j -> !j.info().preemptable() && j.pendingTaskNum() > 0);
    }

    /** The running preemptable tasks on the nodes of the zones whose window has closed, at most once per period. */
    private List<SessionTask> victims(Session ssn, Instant now) {
        if (now == null) return List.of();
        if (lastEviction.at != null && lastEviction.at.plus(evictPeriod).isAfter(now)) return List.of();
        List<SessionTask> victims = new ArrayList<>();
        for (String zone : revocableZone.keySet()) {
            if (unavailable(zone, now) == null) continue;
            Map<SessionJob, List<SessionTask>> byJob = new LinkedHashMap<>();
            for (SessionNode node : ssn.nodes()) {
                if (!node.info().revocableZone().equals(zone)) continue;
                for (SessionTask t : node.tasks()) {
                    if (t.info().preemptable() && t.status() == TaskStatus.Running) {
                        byJob.computeIfAbsent(t.job(), j -> new ArrayList<>()).add(t);
                    }
                }
            }
            victims.addAll(maxVictims(byJob));
        }
        lastEviction.at = now;
        return victims;
    }

    private static List<SessionTask> maxVictims(Map<SessionJob, List<SessionTask>> byJob) {
        List<SessionTask> victims = new ArrayList<>();
        byJob.forEach((job, tasks) -> victims.addAll(tasks.subList(0, Math.min(maxPodEvictNum(job), tasks.size()))));
        return victims;
    }

    /**
     * How many of the job's pods may be evicted now, from its disruption budget (Volcano's
     * getMaxPodEvictNum): max-unavailable less those not running already; else running beyond
     * min-available; else one.
     */
    static int maxPodEvictNum(SessionJob job) {
        int tasks = job.tasks().size();
        int running = 0;
        for (SessionTask t : job.tasks()) {
            if (t.status() == TaskStatus.Running) running++;
        }
        DisruptionBudget budget = job.info().budget();
        if (!budget.maxUnavailable().isEmpty()) {
            int maxUnavailable = DisruptionBudget.valueOf(budget.maxUnavailable(), tasks);
            int realUnavailable = tasks - job.finishedTaskNum() - running;
            return realUnavailable >= maxUnavailable ? 0 : maxUnavailable - realUnavailable;
        }
        if (!budget.minAvailable().isEmpty()) {
            int minAvailable = DisruptionBudget.valueOf(budget.minAvailable(), tasks);
            if (running >= minAvailable) return running - minAvailable;
        }
        return DEFAULT_POD_EVICT_NUM;
    }
}
