package io.lahar.core.scheduling.actions;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionQueue;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Volcano's allocate: queue by queue (in queue order, skipping overused queues) and job by job (in
 * job order), places a job's pending tasks one by one in task order on the best node, inside one
 * statement. The statement is committed when the gang is ready (or pipelined), and discarded whole
 * otherwise. A ready job with tasks left goes back into its queue, so jobs take turns.
 *
 * <p>When a task finds no node, the job's later tasks are still tried while its gang can be made
 * without that task's role (Volcano's NeedContinueAllocating), and the role's later tasks are
 * skipped; a task its queue cannot take now is passed over, the next one tried. With
 * {@code predicateErrorCacheEnable} (on by default) a role's tasks do not try again in the same
 * turn the nodes an earlier one of them failed on ({@link PredicateErrorCache}).
 *
 * <p>As Volcano's, best-effort tasks (no cpu, memory or scalar request) are left to backfill, and a
 * job with no other pending task is not taken: the gang's readiness counts its pending best-effort
 * tasks as ready ({@link SessionJob#isReady}), so a gang of both kinds commits here once the others
 * are placed, and backfill then gives the best-effort ones their pod slots.
 */
public final class Allocate implements Action {
    public static final String NAME = "allocate";
    /** Off: every task scans every node (for plugins whose predicates or scores the candidate index cannot hold). */
    public static final String CANDIDATE_INDEX = "candidateIndex";
    /** Volcano's switch of its predicate error cache (conf.EnablePredicateErrCacheKey). */
    public static final String PREDICATE_ERROR_CACHE = "predicateErrorCacheEnable";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void readArguments(io.lahar.core.scheduling.framework.Arguments args) {
        args.getBool(CANDIDATE_INDEX, true);
        args.getBool(PREDICATE_ERROR_CACHE, true);
    }

    @Override
    public void execute(Session ssn) {
        boolean enqueueGate = ssn.conf().hasAction(Enqueue.NAME);
        boolean indexed = ssn.conf().actionArguments(NAME).getBool(CANDIDATE_INDEX, true);
        boolean errorCache = ssn.conf().actionArguments(NAME).getBool(PREDICATE_ERROR_CACHE, true);
        Map<SessionJob, Map<String, Boolean>> alike = new HashMap<>();
        PriorityQueue<SessionQueue> queues = new PriorityQueue<>(ssn::compareQueues);
        Map<SessionQueue, PriorityQueue<SessionJob>> jobsByQueue = new HashMap<>();
        // Kept across turns, as Volcano's job worksheets: a job coming back must not re-sort its tasks.
        Map<SessionJob, PriorityQueue<SessionTask>> pendingTasks = new HashMap<>();
        for (SessionJob job : ssn.jobs()) {
            // Volcano's allocate moves every Pending group to Inqueue when there is no enqueue
            // action, before it asks anything else of the job; later actions (backfill) see it.
            if (!enqueueGate
                    && job.phase() == PodGroupPhase.Pending
                    && job.problems().isEmpty()) {
                ssn.inqueueUngated(job);
            }
            if (!schedulable(ssn, job, enqueueGate)) {
                continue;
            }
            PriorityQueue<SessionTask> worksheet = worksheet(ssn, job);
            if (worksheet.isEmpty()) {
                continue; // only best-effort tasks pending: backfill's
            }
            SessionQueue q = QueueChecks.usableQueue(job);
            if (q == null) {
                continue;
            }
            jobsByQueue
                    .computeIfAbsent(q, k -> {
                        queues.add(k);
                        return new PriorityQueue<>(ssn::compareJobs);
                    })
                    .add(job);
            pendingTasks.put(job, worksheet);
        }
        while (!queues.isEmpty()) {
            SessionQueue q = queues.poll();
            PriorityQueue<SessionJob> jobs = jobsByQueue.get(q);
            String overused = ssn.overused(q);
            if (overused != null) {
                for (SessionJob j : jobs) {
                    if (!j.isReady()) j.addReason(overused);
                }
                continue;
            }
            SessionJob job = jobs.poll();
            Map<String, Boolean> roles = errorCache ? alike.computeIfAbsent(job, j -> alikeRoles(ssn, j)) : null;
            allocateJob(ssn, q, job, jobs, pendingTasks, indexed, roles);
            if (!jobs.isEmpty()) {
                queues.add(q);
            }
        }
    }

    /** The job's pending tasks allocate places, in task order: not the best-effort ones (Volcano's organizeJobWorksheet). */
    private static PriorityQueue<SessionTask> worksheet(Session ssn, SessionJob job) {
        PriorityQueue<SessionTask> pq = new PriorityQueue<>(ssn::compareTasks);
        for (SessionTask t : job.pendingTasks()) {
            if (!t.isBestEffort()) pq.add(t);
        }
        return pq;
    }

    /** A job allocate (or preempt) looks at: admitted (unless there is no enqueue action), valid, with pending tasks. */
    static boolean schedulable(Session ssn, SessionJob job, boolean enqueueGate) {
        if (!job.problems().isEmpty() || job.pendingTaskNum() == 0) {
            return false;
        }
        if (enqueueGate && job.phase() == PodGroupPhase.Pending) {
            return false;
        }
        String invalid = ssn.jobValid(job);
        if (invalid != null) {
            job.addReason(invalid);
            return false;
        }
        return true;
    }

    private void allocateJob(
            Session ssn,
            SessionQueue q,
            SessionJob job,
            PriorityQueue<SessionJob> jobs,
            Map<SessionJob, PriorityQueue<SessionTask>> pendingTasks,
            boolean indexed,
            Map<String, Boolean> alikeRoles) {
        PriorityQueue<SessionTask> tasks = pendingTasks.get(job);
        List<SessionTask> attempted = new ArrayList<>();
        Map<String, PredicateErrorCache> caches = new HashMap<>();
        Set<String> failedRoles = failedRoles(job);
        Statement stmt = ssn.statement();
        while (!tasks.isEmpty()) {
            SessionTask task = tasks.poll();
            attempted.add(task);
            String role = task.info().role();
            String notAllocatable = ssn.allocatable(q, task);
            if (notAllocatable != null) {
                job.addReason(notAllocatable);
                continue;
            }
            // Volcano's TaskHasFitErrors: a role one of whose tasks found no node this session is not tried again.
            if (!role.isEmpty() && failedRoles.contains(role)) continue;
            FitErrors errors = new FitErrors();
            Placement.Choice choice = place(
                    ssn,
                    task,
                    errors,
                    indexed,
                    alikeRoles == null || role.isEmpty()
                            ? null
                            : caches.computeIfAbsent(role, r -> new PredicateErrorCache(alikeRoles.get(r))));
            if (choice == null) {
                job.recordFitErrors(task, errors);
                failedRoles.add(role);
                if (job.needContinueAllocating(failedRoles)) continue;
                break;
            }
            if (choice.pipelined()) {
                stmt.pipeline(task, choice.node());
            } else {
                stmt.allocate(task, choice.node());
            }
            if (ssn.jobReady(job) && !tasks.isEmpty()) {
                jobs.add(job); // let other jobs take a turn before this one grows beyond its gang
                break;
            }
        }
        if (ssn.jobReady(job) || ssn.jobPipelined(job)) {
            stmt.commit();
        } else {
            job.setPlaceableInLastAttempt(job.readyTaskNum() + job.waitingTaskNum());
            stmt.discard();
        }
        // Tasks tried but not kept stay pending (the job is not offered again in this action anyway).
        for (SessionTask t : attempted) {
            if (t.status() == TaskStatus.Pending) tasks.add(t);
        }
    }

    /** The node for a task, through the role's predicate error cache when there is one. */
    private static Placement.Choice place(
            Session ssn, SessionTask task, FitErrors errors, boolean indexed, PredicateErrorCache cache) {
        if (cache == null) return Placement.find(ssn, task, errors, true, indexed);
        NodeCheck check = ssn.prePredicate(task);
        if (cache.perNode(check)) return Placement.find(ssn, task, errors, true, check, cache);
        Placement.Choice choice = Placement.find(ssn, task, errors, true, indexed, cache.wrap(check));
        cache.remember(check); // as the nodes stood for this task, before it is placed
        return choice;
    }

    /** The roles of the job whose tasks found no node earlier in this session (Volcano's FitFailedRoles). */
    private static Set<String> failedRoles(SessionJob job) {
        Set<String> out = new HashSet<>();
        for (SessionTask t : job.fitErrors().keySet()) out.add(t.info().role());
        return out;
    }

    /**
     * Per role, whether its pending tasks are alike for every predicate: the same request, node
     * selector, affinity, tolerations and pod constraints, and the same values of the labels some
     * selector of the session names (a task index, say, tells them apart only if a selector asks).
     */
    private static Map<String, Boolean> alikeRoles(Session ssn, SessionJob job) {
        Map<String, SessionTask> first = new HashMap<>();
        Map<String, Boolean> out = new HashMap<>();
        Set<String> keys = ssn.selectorKeys();
        for (SessionTask t : job.tasks()) {
            if (t.status() != TaskStatus.Pending) continue;
            SessionTask f = first.putIfAbsent(t.info().role(), t);
            out.merge(t.info().role(), f == null || alike(f.info(), t.info(), keys), Boolean::logicalAnd);
        }
        return out;
    }

    private static boolean alike(TaskInfo a, TaskInfo b, Set<String> selectorKeys) {
        if (!a.resreq().equals(b.resreq())
                || !a.nodeSelector().equals(b.nodeSelector())
                || !a.affinity().equals(b.affinity())
                || !a.tolerations().equals(b.tolerations())) {
            return false;
        }
        if (a.spec() == b.spec()) return true;
        if (!a.spec().withLabels(Map.of()).equals(b.spec().withLabels(Map.of()))) return false;
        for (String k : selectorKeys) {
            if (!java.util.Objects.equals(
                    a.spec().labels().get(k), b.spec().labels().get(k))) return false;
        }
        return true;
    }
}
