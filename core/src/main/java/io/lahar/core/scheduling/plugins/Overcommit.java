package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionNode;

/**
 * Volcano's overcommit plugin, the enqueue gate: a pod group is admitted (Pending to Inqueue) only if
 * its minResources fit in the cluster's total times the overcommit factor (default 1.2), less what
 * is used and what admitted pod groups are promised: an Inqueue group's whole minResources, a
 * Running group's minResources beyond what it holds (only once minMember tasks hold nodes).
 */
public final class Overcommit implements Plugin {
    public static final String NAME = "overcommit";
    public static final String FACTOR = "overcommit-factor";

    private final double factor;
    private Resource idle = Resource.EMPTY;
    private Resource inqueue = Resource.EMPTY;

    public Overcommit(Arguments args) {
        this.factor = args.getDouble(FACTOR, 1.2);
        if (factor < 1.0) {
            throw new IllegalArgumentException("argument " + FACTOR + ": must be at least 1.0, got " + factor);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        Resource used = Resource.EMPTY;
        for (SessionNode n : ssn.nodes()) {
            used = used.add(n.used().withPods(0));
        }
        idle = ssn.totalResource().multiply(factor).sub(used);
        for (SessionJob j : ssn.jobs()) {
            inqueue = inqueue.add(j.inqueueReservation());
        }
        ssn.addJobEnqueueableFn(NAME, this::vote);
        ssn.addJobEnqueuedFn(
                NAME, j -> inqueue = inqueue.add(j.info().minResources().withPods(0)));
    }

    private Vote vote(SessionJob j) {
        Resource min = j.info().minResources().withPods(0);
        if (min.isEmpty()) {
            return Vote.PERMIT;
        }
        Resource free = idle.sub(inqueue);
        if (min.lessEqual(free)) {
            return Vote.PERMIT;
        }
        StringBuilder sb = new StringBuilder("not enough idle resources to enqueue (overcommit factor ")
                .append(factor)
                .append("): ");
        boolean first = true;
        for (String d : min.exceeding(free)) {
            if (!first) sb.append(", ");
            first = false;
            sb.append("minResources ")
                    .append(d)
                    .append(' ')
                    .append(Resource.format(d, min.get(d)))
                    .append(" > ")
                    .append(Resource.format(d, Math.max(0, free.get(d))))
                    .append(" available");
        }
        return Vote.reject(sb.toString());
    }
}
