package io.lahar.core.scheduling.actions;

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

/**
 * Volcano's preempt: within a queue, a starving job takes nodes from running tasks of other jobs that
 * the preemptable functions give up (priority: lower-priority jobs; gang: only beyond the victim's
 * minMember; conformance: never critical pods). Victims are evicted and the preemptor is pipelined
 * onto the freed room; the job's statement commits only if its gang is then pipelined.
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
            PriorityQueue<SessionJob> preemptors = new PriorityQueue<>(ssn::compareJobs);
            for (SessionJob job : q.jobs()) {
                if (Allocate.schedulable(ssn, job, enqueueGate) && QueueChecks.usableQueue(job) != null
                        && ssn.jobStarving(job)) {
                    preemptors.add(job);
                }
            }
            while (!preemptors.isEmpty()) {
                SessionJob job = preemptors.poll();
                Statement stmt = ssn.statement();
                PriorityQueue<SessionTask> tasks = new PriorityQueue<>(ssn::compareTasks);
                tasks.addAll(job.pendingTasks());
                while (!tasks.isEmpty()) {
                    SessionTask task = tasks.poll();
                    if (task.isBestEffort()) {
                        continue; // needs no room taken from anyone
                    }
                    if (!preempt(ssn, stmt, task, job)) {
                        break;
                    }
                }
                if (ssn.jobPipelined(job)) {
                    stmt.commit();
                } else {
                    stmt.discard();
                }
            }
        }
    }

    private boolean preempt(Session ssn, Statement stmt, SessionTask task, SessionJob job) {
        for (SessionNode node : Placement.candidates(ssn, task)) {
            List<SessionTask> preemptees = new ArrayList<>();
            for (SessionTask t : node.tasks()) {
                if (t.status().isAllocated() && t.job() != job && t.job().queue() == job.queue()
                        && t.info().preemptable()) {
                    preemptees.add(t);
                }
            }
            if (preemptees.isEmpty() && !task.request().lessEqual(node.futureIdle())) {
                continue;
            }
            List<SessionTask> victims = preemptees.isEmpty() ? List.of() : ssn.preemptable(task, preemptees);
            if (Eviction.makeRoom(ssn, stmt, task, node, victims, "preempted by " + task + " (priority " + job.priority() + ")")) {
                return true;
            }
        }
        return false;
    }
}
