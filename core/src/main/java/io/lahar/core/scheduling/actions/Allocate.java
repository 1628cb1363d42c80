package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.api.PodGroupPhase;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionQueue;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Volcano's allocate: queue by queue (in queue order, skipping overused queues) and job by job (in
 * job order), places a job's pending tasks one by one in task order on the best node, inside one
 * statement. The statement is committed when the gang is ready (or pipelined), and discarded whole
 * otherwise. A ready job with tasks left goes back into its queue, so jobs take turns.
 *
 * <p>Unlike Volcano, best-effort tasks are placed here too (they need no queue share): a gang whose
 * minMember counts best-effort tasks would otherwise never become ready in allocate.
 */
public final class Allocate implements Action {
    public static final String NAME = "allocate";
    /** Off: every task scans every node (for plugins whose predicates or scores the candidate index cannot hold). */
    public static final String CANDIDATE_INDEX = "candidateIndex";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void readArguments(io.lahar.core.scheduling.framework.Arguments args) {
        args.getBool(CANDIDATE_INDEX, true);
    }

    @Override
    public void execute(Session ssn) {
        boolean enqueueGate = ssn.conf().hasAction(Enqueue.NAME);
        boolean indexed = ssn.conf().actionArguments(NAME).getBool(CANDIDATE_INDEX, true);
        PriorityQueue<SessionQueue> queues = new PriorityQueue<>(ssn::compareQueues);
        Map<SessionQueue, PriorityQueue<SessionJob>> jobsByQueue = new HashMap<>();
        // Kept across turns, as Volcano's pendingTasks map: a job coming back must not re-sort its tasks.
        Map<SessionJob, PriorityQueue<SessionTask>> pendingTasks = new HashMap<>();
        for (SessionJob job : ssn.jobs()) {
            if (!schedulable(ssn, job, enqueueGate)) {
                continue;
            }
            SessionQueue q = QueueChecks.usableQueue(job);
            if (q == null) {
                continue;
            }
            jobsByQueue.computeIfAbsent(q, k -> {
                queues.add(k);
                return new PriorityQueue<>(ssn::compareJobs);
            }).add(job);
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
            allocateJob(ssn, q, job, jobs, pendingTasks, indexed);
            if (!jobs.isEmpty()) {
                queues.add(q);
            }
        }
    }

    /** A job allocate looks at: admitted (unless there is no enqueue action), valid, with pending tasks. */
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

    private void allocateJob(Session ssn, SessionQueue q, SessionJob job, PriorityQueue<SessionJob> jobs,
                             Map<SessionJob, PriorityQueue<SessionTask>> pendingTasks, boolean indexed) {
        PriorityQueue<SessionTask> tasks = pendingTasks.computeIfAbsent(job, j -> {
            PriorityQueue<SessionTask> pq = new PriorityQueue<>(ssn::compareTasks);
            pq.addAll(j.pendingTasks());
            return pq;
        });
        List<SessionTask> attempted = new ArrayList<>();
        Statement stmt = ssn.statement();
        while (!tasks.isEmpty()) {
            SessionTask task = tasks.poll();
            attempted.add(task);
            if (!task.isBestEffort()) {
                String notAllocatable = ssn.allocatable(q, task);
                if (notAllocatable != null) {
                    job.addReason(notAllocatable);
                    break;
                }
            }
            FitErrors errors = new FitErrors();
            Placement.Choice choice = Placement.find(ssn, task, errors, true, indexed);
            if (choice == null) {
                job.recordFitErrors(task, errors);
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
}
