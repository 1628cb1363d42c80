package io.lahar.core.scheduling.actions;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Volcano's enqueue: admits Pending pod groups to Inqueue, queue by queue in queue order and job by
 * job in job order, when the enqueue gates (overcommit, proportion) let their minResources in. A
 * closed queue admits nothing.
 */
public final class Enqueue implements Action {
    public static final String NAME = "enqueue";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session ssn) {
        PriorityQueue<SessionQueue> queues = new PriorityQueue<>(ssn::compareQueues);
        Map<SessionQueue, PriorityQueue<SessionJob>> jobsByQueue = new HashMap<>();
        for (SessionJob job : ssn.jobs()) {
            if (job.phase() != PodGroupPhase.Pending || !job.problems().isEmpty()) {
                continue;
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
        }
        while (!queues.isEmpty()) {
            SessionQueue q = queues.poll();
            PriorityQueue<SessionJob> jobs = jobsByQueue.get(q);
            SessionJob job = jobs.poll();
            Vote vote = job.info().minResources().isEmpty() ? Vote.PERMIT : ssn.jobEnqueueable(job);
            if (vote.value() >= 0) {
                ssn.jobEnqueued(job);
            } else {
                job.addReason(vote.reason());
            }
            if (!jobs.isEmpty()) {
                queues.add(q);
            }
        }
    }
}
