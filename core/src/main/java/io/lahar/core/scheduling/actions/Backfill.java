package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's backfill: places best-effort tasks (no cpu, memory or scalar request) of admitted jobs
 * on any node the predicates allow, whatever the queue's share, since they take only a pod slot.
 * A job's placements still commit only when its gang is ready.
 */
public final class Backfill implements Action {
    public static final String NAME = "backfill";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session ssn) {
        boolean enqueueGate = ssn.conf().hasAction(Enqueue.NAME);
        List<SessionJob> jobs = new ArrayList<>(ssn.jobs());
        jobs.sort(ssn::compareJobs);
        for (SessionJob job : jobs) {
            if (!Allocate.schedulable(ssn, job, enqueueGate) || QueueChecks.usableQueue(job) == null) {
                continue;
            }
            List<SessionTask> tasks = new ArrayList<>();
            for (SessionTask t : job.pendingTasks()) {
                if (t.isBestEffort()) tasks.add(t);
            }
            if (tasks.isEmpty()) {
                continue;
            }
            tasks.sort(ssn::compareTasks);
            Statement stmt = ssn.statement();
            for (SessionTask task : tasks) {
                FitErrors errors = new FitErrors();
                Placement.Choice choice = Placement.find(ssn, task, errors, false);
                if (choice == null) {
                    job.recordFitErrors(task, errors);
                    continue;
                }
                stmt.allocate(task, choice.node());
            }
            if (ssn.jobReady(job)) {
                stmt.commit();
            } else {
                stmt.discard();
            }
        }
    }
}
