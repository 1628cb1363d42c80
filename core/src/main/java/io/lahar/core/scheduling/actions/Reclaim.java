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

/**
 * Volcano's reclaim: a queue below its deserved share takes resources back from other queues that
 * are reclaimable (never from a queue with {@code reclaimable: false}) and whose tasks the
 * reclaimable functions give up (proportion: only from queues above their deserved share). The
 * reclaimer's own queue must still be able to reclaim for the task (Volcano's preemptive functions:
 * proportion, within its deserved share; capacity, within its real capability and below its
 * deserved share in some dimension). Only Running tasks are taken; a starving job's tasks try in
 * order while it still starves, and one that cannot is passed over.
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
                if (t.status() == TaskStatus.Running && t.info().preemptable()) anyReclaimable = true;
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
                // As Volcano's reclaim: while the job starves, each task in order tries; one that
                // cannot (its policy is Never, its queue may not reclaim for it, no node gives room)
                // is passed over.
                while (ssn.jobStarving(job) && !tasks.isEmpty()) {
                    SessionTask task = tasks.poll();
                    if (!task.info().mayPreempt()) continue;
                    String notPreemptive = ssn.preemptive(q, task);
                    if (notPreemptive != null) {
                        job.addReason(notPreemptive);
                        continue;
                    }
                    reclaim(ssn, stmt, task, q);
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
                // Volcano reclaims only Running tasks.
                if (t.status() == TaskStatus.Running
                        && other != null
                        && other != q
                        && other.info().reclaimable()
                        && t.info().preemptable()) {
                    reclaimees.add(t);
                }
            }
            if (reclaimees.isEmpty()) continue;
            // No victims may still do where the node has room already (Volcano's ValidateVictims).
            List<SessionTask> victims = ssn.reclaimable(task, reclaimees);
            if (Eviction.makeRoom(
                    ssn, stmt, task, node, victims, "reclaimed by queue \"" + q.name() + "\" for " + task)) {
                return true;
            }
        }
        return false;
    }
}
