package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.VictimFn;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's gang plugin: a job is valid only if it has enough tasks to reach minMember (and each
 * role's minTaskMember, and each sub-group policy's minSubGroups), ready only when that many hold
 * nodes or are pending best-effort tasks (and that many sub-groups are whole so), as
 * {@link SessionJob#isReady} counts, and its victims are only the tasks beyond its minimum, so
 * preemption never breaks a running gang. Jobs not yet ready go first.
 */
public final class Gang implements Plugin {
    public static final String NAME = "gang";

    public Gang(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        ssn.addJobValidFn(NAME, j -> {
            if (j.isValid()) return null;
            List<String> groups = j.unmetSubGroups(null);
            if (!groups.isEmpty() && j.validTaskNum() >= j.minMember()) {
                return "not enough valid subGroups of each task for gang-scheduling: " + String.join(", ", groups);
            }
            return "not enough valid tasks for gang-scheduling, valid: " + j.validTaskNum() + ", min: " + j.minMember()
                    + (j.validTaskNum() >= j.minMember() ? " (a role is short of its minTaskMember)" : "");
        });
        ssn.addJobOrderFn(NAME, (l, r) -> Boolean.compare(l.isReady(), r.isReady()));
        ssn.addJobReadyFn(NAME, SessionJob::isReady);
        ssn.addJobPipelinedFn(NAME, j -> j.isPipelined() ? Vote.PERMIT : Vote.reject("gang not pipelined"));
        ssn.addJobStarvingFn(NAME, SessionJob::isStarving);
        VictimFn keepGangs = (preemptor, preemptees) -> {
            Map<SessionJob, Integer> taken = new HashMap<>();
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask p : preemptees) {
                SessionJob job = p.job();
                int already = taken.getOrDefault(job, 0);
                int takenOfRole = 0;
                for (SessionTask v : victims) {
                    if (v.job() == job && v.info().role().equals(p.info().role())) takenOfRole++;
                }
                boolean keepsGang = job.minMember() <= job.readyTaskNum() - already - 1 || job.minMember() == 1;
                if (keepsGang && job.roleKeepsMinimumWithout(p, takenOfRole)) {
                    victims.add(p);
                    taken.merge(job, 1, Integer::sum);
                }
            }
            return victims;
        };
        ssn.addPreemptableFn(NAME, keepGangs);
        ssn.addReclaimableFn(NAME, keepGangs);
    }
}
