package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionQueue;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * Volcano's preempt: within a queue, a starving job takes nodes from running tasks of other jobs that
 * the preemptable functions give up (priority: lower-priority jobs; gang: only beyond the victim's
 * minMember; conformance: never critical pods). Victims are evicted and the preemptor is pipelined
 * onto the freed room; the job's statement commits only if its gang is then pipelined. Then, as
 * Volcano does, a pending task may take the node of a lower-priority task of its own job. A task
 * whose {@code preemptionPolicy} is Never takes nobody's place.
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
                    // Volcano's taskEligibleToPreempt: such a task is passed over, the job's next one tried.
                    if (!task.info().mayPreempt()) continue;
                    if (!preempt(ssn, stmt, task, t -> t.job() != job && t.job().queue() == job.queue())) {
                        break;
                    }
                }
                if (ssn.jobPipelined(job)) {
                    stmt.commit();
                } else {
                    stmt.discard();
                }
            }
            // Within a job: a pending task takes the node of a lower-priority task of its own job (the
            // gang size does not change, so each such swap is committed on its own).
            for (SessionJob job : starving) {
                for (SessionTask task : pendingInOrder(ssn, job)) {
                    if (task.status() != TaskStatus.Pending) continue;
                    Statement stmt = ssn.statement();
                    if (preempt(ssn, stmt, task, t -> t.job() == job)) {
                        stmt.commit();
                    } else {
                        stmt.discard();
                    }
                }
            }
        }
    }

    private static boolean hasRunningPreemptable(SessionQueue q) {
        for (SessionJob j : q.jobs()) {
            for (SessionTask t : j.tasks()) {
                if (t.status().isAllocated() && t.info().preemptable()) return true;
            }
        }
        return false;
    }

    /** Pending tasks that need room (best-effort ones need none), in task order. */
    private static List<SessionTask> pendingInOrder(Session ssn, SessionJob job) {
        List<SessionTask> tasks = new ArrayList<>();
        for (SessionTask t : job.pendingTasks()) {
            if (!t.isBestEffort()) tasks.add(t);
        }
        tasks.sort(ssn::compareTasks);
        return tasks;
    }

    private boolean preempt(Session ssn, Statement stmt, SessionTask task, Predicate<SessionTask> filter) {
        if (!task.info().mayPreempt()) return false; // its preemptionPolicy is Never
        SessionJob job = task.job();
        for (SessionNode node : Placement.candidates(ssn, task)) {
            List<SessionTask> preemptees = new ArrayList<>();
            for (SessionTask t : node.tasks()) {
                if (t.status().isAllocated() && t.info().preemptable() && filter.test(t)) {
                    preemptees.add(t);
                }
            }
            if (preemptees.isEmpty() && !task.request().lessEqual(node.futureIdle())) {
                continue;
            }
            List<SessionTask> victims = preemptees.isEmpty() ? List.of() : ssn.preemptable(task, preemptees);
            String why = "preempted by " + task + " (job priority " + job.priority() + ", task priority "
                    + task.priority() + ")";
            if (Eviction.makeRoom(ssn, stmt, task, node, victims, why)) {
                return true;
            }
        }
        return false;
    }
}
