package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Action;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionTask;
import io.lahar.core.scheduling.framework.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's shuffle: evicts the running tasks the plugins' victim-tasks functions select (tdm: the
 * preemptable tasks on revocable nodes whose zone's time window has closed). Unlike preempt and
 * reclaim it makes room for nobody; the evicted pods are placed again by later sessions. Not in the
 * default configuration, as in Volcano.
 */
public final class Shuffle implements Action {
    public static final String NAME = "shuffle";
    /** The reason every eviction of this action carries, as Volcano's. */
    public static final String REASON = "shuffle";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session ssn) {
        List<SessionTask> running = new ArrayList<>();
        for (SessionJob job : ssn.jobs()) {
            for (SessionTask t : job.tasks()) {
                if (t.status() == TaskStatus.Running) running.add(t);
            }
        }
        for (SessionTask victim : ssn.victimTasks(running)) {
            // Volcano's Evict fails for a task it cannot release; such a victim is skipped, as there.
            if (victim.node() == null || !victim.status().occupiesNode() || victim.status() == TaskStatus.Releasing) {
                continue;
            }
            Statement stmt = ssn.statement();
            stmt.evict(victim, REASON);
            stmt.commit();
        }
    }
}
