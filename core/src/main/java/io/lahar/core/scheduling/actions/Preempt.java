package io.lahar.core.scheduling.actions;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionQueue;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * Volcano's preempt: within a queue, a starving job takes nodes from running tasks of other jobs that
 * the preemptable functions give up (priority: lower-priority jobs; gang: only beyond the victim's
 * minMember; conformance: never critical pods). Victims are evicted and the preemptor is pipelined
 * onto the freed room; the job's pending tasks try in task order while it still starves, one that
 * cannot is passed over, and the job's statement commits only if its gang is then pipelined. Then, as
 * Volcano does, a pending task may take the node of a lower-priority task of its own job, until the
 * first that cannot. A task whose {@code preemptionPolicy} is Never takes nobody's place; a
 * best-effort one takes only best-effort tasks' places (it needs no room, so it is pipelined).
 */
public final class Preempt implements Action {
    public static final String NAME = "preempt";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session ssn) {
        boolean enqueueGate = ssn.conf().hasAction(Enqueue.NAME);
        for (SessionQueue q : ssn.queues().values()) {
            if (!hasRunningPreemptable(q)) {
                continue; // nothing to take in this queue: spare every starving job a scan of the nodes
            }
            List<SessionJob> starving = new ArrayList<>();
            for (SessionJob job : q.jobs()) {
                if (Allocate.schedulable(ssn, job, enqueueGate)
                        && QueueChecks.usableQueue(job) != null
                        && ssn.jobStarving(job)) {
                    starving.add(job);
                }
            }
            // Between jobs: a starving job takes from other jobs of its queue; its gang must then be pipelined.
            PriorityQueue<SessionJob> preemptors = new PriorityQueue<>(ssn::compareJobs);
            preemptors.addAll(starving);
            while (!preemptors.isEmpty()) {
                SessionJob job = preemptors.poll();
                Statement stmt = ssn.statement();
                for (SessionTask task : pendingInOrder(ssn, job)) {
                    // As Volcano's preempt asks before each task: a job no longer starving takes no more.
                    if (!ssn.jobStarving(job)) break;
                    // A task that takes nobody's place (its policy is Never, or no node gives it room)
                    // is passed over and the job's next one tried, as Volcano does.
                    preempt(ssn, stmt, task, t -> t.job() != job && t.job().queue() == job.queue());
                }
                if (ssn.jobPipelined(job)) {
                    stmt.commit();
                } else {
                    stmt.discard();
                }
            }
            // Within a job: a pending task takes the node of a lower-priority task of its own job (the
            // gang size does not change, so each such swap is committed on its own). The first task that
            // cannot ends the job's turn, as in Volcano.
            for (SessionJob job : starving) {
                for (SessionTask task : pendingInOrder(ssn, job)) {
                    if (task.status() != TaskStatus.Pending) continue;
                    Statement stmt = ssn.statement();
                    if (!preempt(ssn, stmt, task, t -> t.job() == job)) {
                        stmt.discard();
                        break;
                    }
                    stmt.commit();
                }
            }
        }
    }

    private static boolean hasRunningPreemptable(SessionQueue q) {
        for (SessionJob j : q.jobs()) {
            for (SessionTask t : j.tasks()) {
                if (t.status().isPreemptable() && t.info().preemptable()) return true;
            }
        }
        return false;
    }

    /**
     * Pending tasks in task order, best-effort ones included as in Volcano: one needs no room and is
     * pipelined where it fits, which counts towards its job's gang.
     */
    private static List<SessionTask> pendingInOrder(Session ssn, SessionJob job) {
        List<SessionTask> tasks = job.pendingTasks();
        tasks.sort(ssn::compareTasks);
        return tasks;
    }

    private boolean preempt(Session ssn, Statement stmt, SessionTask task, Predicate<SessionTask> filter) {
        if (!task.info().mayPreempt()) return false; // its preemptionPolicy is Never
        SessionJob job = task.job();
        for (SessionNode node : Placement.candidates(ssn, task)) {
            List<SessionTask> preemptees = new ArrayList<>();
            for (SessionTask t : node.tasks()) {
                // A best-effort preemptor takes only best-effort tasks' places (Volcano's filter).
                if (t.status().isPreemptable()
                        && t.info().preemptable()
                        && (!task.isBestEffort() || t.isBestEffort())
                        && filter.test(t)) {
                    preemptees.add(t);
                }
            }
            List<SessionTask> victims = preemptees.isEmpty() ? List.of() : ssn.preemptable(task, preemptees);
            // Volcano's ValidateVictims: the node could hold the task once every victim is gone.
            Resource room = node.futureIdle();
            for (SessionTask v : victims) {
                room = room.add(v.request());
            }
            if (!task.request().lessEqual(room)) continue;
            String why = "preempted by " + task + " (job priority " + job.priority() + ", task priority "
                    + task.priority() + ")";
            // Victims go, least important first, until the task fits the node and its queue may take
            // it (an eviction in the same queue gives the queue room too); if it never does, the
            // node's evictions are undone and the next node is tried (Volcano's normalPreempt).
            int mark = stmt.mark();
            Iterator<SessionTask> next =
                    Eviction.leastImportantFirst(ssn, victims).iterator();
            while (!fits(ssn, task, node) && next.hasNext()) {
                stmt.evict(next.next(), why);
            }
            if (fits(ssn, task, node)) {
                stmt.pipeline(task, node);
                return true;
            }
            stmt.undoTo(mark);
        }
        return false;
    }

    /** Volcano's preemptorFitsOnNode: the queue may take the task and the node's future idle holds it. */
    private static boolean fits(Session ssn, SessionTask task, SessionNode node) {
        boolean queueTakes = task.isBestEffort() || ssn.allocatable(task.job().queue(), task) == null;
        return queueTakes && task.request().lessEqual(node.futureIdle());
    }
}
