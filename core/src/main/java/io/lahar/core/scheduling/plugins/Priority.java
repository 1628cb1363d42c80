package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's priority plugin: higher-priority jobs and tasks go first; a task may preempt tasks of
 * lower-priority jobs (or, within its own job, lower-priority tasks); a job starves while some of
 * its tasks are neither placed nor pipelined.
 */
public final class Priority implements Plugin {
    public static final String NAME = "priority";

    public Priority(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        ssn.addJobOrderFn(NAME, (l, r) -> Integer.compare(r.priority(), l.priority()));
        ssn.addTaskOrderFn(NAME, (l, r) -> Integer.compare(r.priority(), l.priority()));
        ssn.addPreemptableFn(NAME, (preemptor, preemptees) -> {
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask p : preemptees) {
                boolean lower = p.job() != preemptor.job()
                        ? p.job().priority() < preemptor.job().priority()
                        : p.priority() < preemptor.priority();
                if (lower) victims.add(p);
            }
            return victims;
        });
        ssn.addJobStarvingFn(
                NAME, j -> j.readyTaskNum() + j.waitingTaskNum() < j.tasks().size());
    }
}
