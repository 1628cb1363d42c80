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
 * Volcano's reclaim: a queue below its deserved share takes resources back from other queues that
 * are reclaimable (never from a queue with {@code reclaimable: false}) and whose tasks the
 * reclaimable functions give up (proportion: only from queues above their deserved share). The
 * reclaimer's own queue must still be able to reclaim for the task (Volcano's preemptive functions:
 * proportion, within its deserved share; capacity, within its real capability and below its
 * deserved share in some dimension).
 */
public final class Reclaim implements Action {
    public static final String NAME = "reclaim";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session ssn) {
        boolean enqueueGate = ssn.conf().hasAction(Enqueue.NAME);
        boolean anyReclaimable = false;
        for (SessionJob j : ssn.jobs()) {
            if (j.queue() == null || !j.queue().info().reclaimable()) continue;
            for (SessionTask t : j.tasks()) {
                if (t.status().isAllocated() && t.info().preemptable()) anyReclaimable = true;
            }
        }
        if (!anyReclaimable) {
            return; // nothing anywhere may be reclaimed: spare every starving job a scan of the nodes
        }
        PriorityQueue<SessionQueue> queues = new PriorityQueue<>(ssn::compareQueues);
        for (SessionQueue q : ssn.queues().values()) {
            if (q.isLeaf() && q.isOpen() && !q.jobs().isEmpty()) queues.add(q);
        }
        while (!queues.isEmpty()) {
            SessionQueue q = queues.poll();
            if (ssn.overused(q) != null) {
                continue;
            }
            PriorityQueue<SessionJob> jobs = new PriorityQueue<>(ssn::compareJobs);
            for (SessionJob job : q.jobs()) {
                if (Allocate.schedulable(ssn, job, enqueueGate) && ssn.jobStarving(job)) jobs.add(job);
            }
            while (!jobs.isEmpty()) {
                SessionJob job = jobs.poll();
                Statement stmt = ssn.statement();
                PriorityQueue<SessionTask> tasks = new PriorityQueue<>(ssn::compareTasks);
                tasks.addAll(job.pendingTasks());
                while (!tasks.isEmpty()) {
                    SessionTask task = tasks.poll();
                    if (task.isBestEffort()) continue;
                    if (!task.info().mayPreempt())
                        continue; // its preemptionPolicy is Never, as Volcano's reclaim skips it
                    String notPreemptive = ssn.preemptive(q, task);
                    if (notPreemptive != null) {
                        job.addReason(notPreemptive);
                        break;
                    }
                    if (!reclaim(ssn, stmt, task, q)) break;
                }
                if (ssn.jobPipelined(job)) {
                    stmt.commit();
                } else {
                    stmt.discard();
                }
            }
        }
    }

    private boolean reclaim(Session ssn, Statement stmt, SessionTask task, SessionQueue q) {
        for (SessionNode node : Placement.candidates(ssn, task)) {
            List<SessionTask> reclaimees = new ArrayList<>();
            for (SessionTask t : node.tasks()) {
                SessionQueue other = t.job().queue();
                if (t.status().isAllocated()
                        && other != null
                        && other != q
                        && other.info().reclaimable()
                        && t.info().preemptable()) {
                    reclaimees.add(t);
                }
            }
            if (reclaimees.isEmpty()) continue;
            List<SessionTask> victims = ssn.reclaimable(task, reclaimees);
            if (victims.isEmpty()) continue;
            if (Eviction.makeRoom(
                    ssn, stmt, task, node, victims, "reclaimed by queue \"" + q.name() + "\" for " + task)) {
                return true;
            }
        }
        return false;
    }
}
