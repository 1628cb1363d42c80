package io.lahar.core.scheduling.actions;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.Arguments;
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

/**
 * Volcano's backfill: places best-effort tasks (no cpu, memory or scalar request), which allocate
 * leaves to it, on any node the predicates allow and with a pod slot left, whatever the queue's
 * share, since they take only a pod slot. As Volcano's {@code pickUpPendingTasks}, the tasks are
 * taken queue by queue in queue order, within a queue job by job in job order and within a job in
 * task order, all ordered before the first is placed; a best-effort task an earlier action
 * pipelined is taken off its node and placed again like a pending one. Only the queue's existence
 * is asked, not its state. Each task is placed on its own and kept, as {@code ssn.Allocate} keeps
 * it: the session binds it once its gang is ready — pending best-effort tasks counting as ready, a
 * gang allocate committed is, and so is one of best-effort tasks only — and until then it holds its
 * pod slot; a task that finds no node records why and the next one is tried.
 */
public final class Backfill implements Action {
    public static final String NAME = "backfill";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Volcano's backfill reads the predicate error cache switch too; its cache lives for one task's
     * scan, so it never skips a node, and neither switch position changes a placement.
     */
    @Override
    public void readArguments(Arguments args) {
        args.getBool(Allocate.PREDICATE_ERROR_CACHE, true);
    }

    @Override
    public void execute(Session ssn) {
        for (SessionTask task : pickUpTasks(ssn)) {
            FitErrors errors = new FitErrors();
            Placement.Choice choice = Placement.find(ssn, task, errors, false);
            if (choice == null) {
                task.job().recordFitErrors(task, errors);
                continue;
            }
            Statement stmt = ssn.statement();
            stmt.allocate(task, choice.node());
            stmt.commit();
        }
    }

    /** The best-effort tasks to place, in Volcano's order; pipelined ones are taken off their nodes first. */
    private static List<SessionTask> pickUpTasks(Session ssn) {
        Map<SessionQueue, List<SessionJob>> jobsByQueue = new HashMap<>();
        Map<SessionJob, List<SessionTask>> tasksByJob = new HashMap<>();
        for (SessionJob job : ssn.jobs()) {
            if (!job.problems().isEmpty() || !hasBestEffortWork(job)) {
                continue;
            }
            // Without an enqueue action, an allocate that ran before has moved the Pending ones to Inqueue.
            if (job.phase() == PodGroupPhase.Pending) {
                continue;
            }
            String invalid = ssn.jobValid(job);
            if (invalid != null) {
                job.addReason(invalid);
                continue;
            }
            SessionQueue q = QueueChecks.existingQueue(job);
            if (q == null) {
                continue;
            }
            List<SessionTask> tasks = new ArrayList<>();
            Statement unpipelined = ssn.statement();
            for (SessionTask t : job.tasks()) {
                if (!t.isBestEffort()) continue;
                if (t.status() == TaskStatus.Pipelined) unpipelined.unpipeline(t);
                if (t.status() == TaskStatus.Pending) tasks.add(t);
            }
            unpipelined.commit();
            tasksByJob.put(job, tasks);
            jobsByQueue.computeIfAbsent(q, k -> new ArrayList<>()).add(job);
        }
        // Ordered once every pipelined task is off its node, so the shares the orders read are the same for all.
        List<SessionQueue> queues = new ArrayList<>(jobsByQueue.keySet());
        queues.sort(ssn::compareQueues);
        List<SessionTask> out = new ArrayList<>();
        for (SessionQueue q : queues) {
            List<SessionJob> jobs = jobsByQueue.get(q);
            jobs.sort(ssn::compareJobs);
            for (SessionJob job : jobs) {
                List<SessionTask> tasks = tasksByJob.get(job);
                tasks.sort(ssn::compareTasks);
                out.addAll(tasks);
            }
        }
        return out;
    }

    private static boolean hasBestEffortWork(SessionJob job) {
        if (job.pendingTaskNum() == 0 && job.waitingTaskNum() == 0) return false; // most jobs: spare them the task scan
        for (SessionTask t : job.tasks()) {
            if (t.isBestEffort() && (t.status() == TaskStatus.Pending || t.status() == TaskStatus.Pipelined)) {
                return true;
            }
        }
        return false;
    }
}
