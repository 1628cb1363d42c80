package io.lahar.core.sim.plan;

import io.lahar.core.admission.Violation;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code lahar plan}'s engine: scheduling sessions over a {@link PlanWorld}, each session's
 * result applied before the next (an instant kubelet: a bound pod runs, an evicted pod is gone and
 * its job creates it again), until a session changes nothing or a given number of sessions ran.
 * Pure and deterministic: the same input gives the same report.
 */
public final class Planner {

    /** A plan that still changes after this many sessions is cut off (reported as not converged). */
    public static final int MAX_SESSIONS = 1_000;

    private final Scheduler scheduler;

    public Planner(SchedulerConf conf) {
        this.scheduler = new Scheduler(conf);
    }

    /**
     * Runs the plan.
     *
     * @param sessions exactly this many sessions, or until nothing changes when null
     */
    public PlanReport plan(PlanWorld world, Integer sessions) {
        if (sessions != null && sessions < 1)
            throw new IllegalArgumentException("sessions must be at least 1, got " + sessions);
        int limit = sessions == null ? MAX_SESSIONS : sessions;
        Map<String, PlanReport.Binding> placed = new TreeMap<>();
        List<PlanReport.Eviction> evictions = new ArrayList<>();
        Set<Problem> problems = new LinkedHashSet<>();
        SessionResult last = null;
        boolean converged = false;
        int ran = 0;
        while (ran < limit) {
            SessionResult r = scheduler.schedule(world.snapshot());
            ran++;
            problems.addAll(r.problems());
            for (SessionResult.Binding b : r.bindings()) {
                String ns = namespace(b.job());
                placed.put(ns + "/" + b.task(), new PlanReport.Binding(ns, b.task(), b.node(), b.action()));
            }
            List<PlanReport.Eviction> now = new ArrayList<>();
            for (SessionResult.Eviction e : r.evictions()) {
                String ns = namespace(e.job());
                placed.remove(ns + "/" + e.task());
                now.add(new PlanReport.Eviction(ns, e.task(), e.node(), e.action(), e.reason(), ran));
            }
            now.sort(Comparator.comparing(PlanReport.Eviction::namespace).thenComparing(PlanReport.Eviction::pod));
            evictions.addAll(now);
            PlanWorld.Step step = world.apply(r);
            world = step.world();
            last = r;
            converged = !step.changed();
            if (converged && sessions == null) break; // with --sessions N, exactly N sessions run
        }
        return new PlanReport(
                ran,
                converged,
                List.copyOf(placed.values()),
                podGroups(world, last),
                queues(last),
                evictions,
                List.copyOf(problems));
    }

    private static String namespace(String jobKey) {
        int slash = jobKey.indexOf('/');
        return slash < 0 ? "default" : jobKey.substring(0, slash);
    }

    private static List<PlanReport.PodGroupStatus> podGroups(PlanWorld world, SessionResult last) {
        List<PlanReport.PodGroupStatus> out = new ArrayList<>();
        for (PlanWorld.Group g : world.groups()) {
            JobInfo j = g.info();
            SessionResult.PodGroupCondition c =
                    last == null ? null : last.conditions().get(j.key());
            String reason = null;
            String message = null;
            if (c != null && SessionResult.PodGroupCondition.UNSCHEDULABLE.equals(c.type())) {
                reason = c.reason();
                message = c.message();
            } else if (c != null) {
                reason = c.type();
            }
            out.add(new PlanReport.PodGroupStatus(
                    j.namespace(), j.name(), j.phase().name(), reason, message, List.of()));
        }
        for (PlanWorld.Rejection r : world.rejected()) {
            List<String> errors =
                    r.violations().stream().map(Violation::toString).toList();
            out.add(new PlanReport.PodGroupStatus(
                    r.namespace(), r.name(), "Rejected", "AdmissionRejected", String.join("; ", errors), errors));
        }
        out.sort(Comparator.comparing(PlanReport.PodGroupStatus::namespace)
                .thenComparing(PlanReport.PodGroupStatus::name));
        return out;
    }

    private static List<PlanReport.QueueStatus> queues(SessionResult last) {
        List<PlanReport.QueueStatus> out = new ArrayList<>();
        if (last == null) return out;
        for (SessionResult.QueueStatus q : last.queues()) {
            out.add(new PlanReport.QueueStatus(
                    q.name(),
                    q.state().name(),
                    q.deserved(),
                    q.allocated(),
                    q.capability(),
                    q.guarantee() == null || q.guarantee().isEmpty() ? null : q.guarantee(),
                    q.plugin()));
        }
        out.sort(Comparator.comparing(PlanReport.QueueStatus::name));
        return out;
    }
}
