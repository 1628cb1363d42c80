package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionQueue;

/** The queue checks the actions make before giving a job new resources (backfill, as Volcano's, only existence). */
final class QueueChecks {
    private QueueChecks() {}

    /** The job's queue if it exists, is a leaf and is open; otherwise null, with the reason on the job. */
    static SessionQueue usableQueue(SessionJob job) {
        SessionQueue q = existingQueue(job);
        if (q == null) {
            return null;
        }
        if (!q.isLeaf()) {
            job.addReason("queue \"" + q.name() + "\" is not a leaf queue; jobs go to leaf queues");
            return null;
        }
        if (!q.isOpen()) {
            job.addReason("queue \"" + q.name() + "\" is " + q.state() + " and takes no new work");
            return null;
        }
        return q;
    }

    /** The job's queue if it exists (whatever its place or state); otherwise null, with the reason on the job. */
    static SessionQueue existingQueue(SessionJob job) {
        SessionQueue q = job.queue();
        if (q == null) {
            job.addReason("queue \"" + job.info().queue() + "\" not found");
        }
        return q;
    }
}
