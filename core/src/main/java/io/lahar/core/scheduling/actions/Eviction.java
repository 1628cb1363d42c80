package io.lahar.core.scheduling.actions;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.List;

/** Shared by preempt and reclaim: evict the fewest, lowest-ordered victims that make room on a node. */
final class Eviction {
    private Eviction() {}

    /**
     * Evicts victims on the node (lowest job then task order first) until the task fits the node's
     * future idle resources, then pipelines the task there. False, with nothing done, when even all
     * victims would not make room.
     */
    static boolean makeRoom(
            Session ssn, Statement stmt, SessionTask task, SessionNode node, List<SessionTask> victims, String reason) {
        Resource room = node.futureIdle();
        for (SessionTask v : victims) {
            room = room.add(v.request());
        }
        if (!task.request().lessEqual(room)) {
            return false;
        }
        for (SessionTask v : leastImportantFirst(ssn, victims)) {
            if (task.request().lessEqual(node.futureIdle())) {
                break;
            }
            stmt.evict(v, reason);
        }
        stmt.pipeline(task, node);
        return true;
    }

    /** Reverse job order, then reverse task order: Volcano's victims queue. */
    static List<SessionTask> leastImportantFirst(Session ssn, List<SessionTask> victims) {
        List<SessionTask> ordered = new ArrayList<>(victims);
        ordered.sort((l, r) -> {
            if (l.job() != r.job()) {
                return ssn.compareJobs(r.job(), l.job());
            }
            return ssn.compareTasks(r, l);
        });
        return ordered;
    }
}
