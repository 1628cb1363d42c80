package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Volcano's drf plugin (dominant resource fairness): jobs with the smaller dominant share (their
 * largest fraction of any cluster resource) go first, and a task may preempt another only if that
 * leaves the preemptor's job with no larger share than the victim's.
 */
public final class Drf implements Plugin {
    public static final String NAME = "drf";
    private static final double SHARE_DELTA = 0.000001;

    private Resource total = Resource.EMPTY;

    public Drf(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    /** The dominant share of an allocation in a total: its largest fraction of any resource. */
    public static double share(Resource allocated, Resource total) {
        // Over cpu, memory and the scalars (not pods). A scalar the allocation lacks is a share of
        // 0 whatever the total holds, so only the allocation's are walked: this orders jobs in every
        // comparison of a session, and builds nothing.
        double s = Math.max(
                0,
                Math.max(
                        fraction(allocated.get(Resource.CPU), total.get(Resource.CPU)),
                        fraction(allocated.get(Resource.MEMORY), total.get(Resource.MEMORY))));
        for (Map.Entry<String, Long> scalar : allocated.scalars().entrySet()) {
            s = Math.max(s, fraction(scalar.getValue(), total.get(scalar.getKey())));
        }
        return s;
    }

    static double fraction(long l, long r) {
        if (r <= 0) {
            return l <= 0 ? 0 : 1;
        }
        return (double) l / r;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        total = ssn.totalResource();
        ssn.addJobOrderFn(NAME, (l, r) -> Double.compare(share(l.allocated(), total), share(r.allocated(), total)));
        ssn.addPreemptableFn(NAME, (preemptor, preemptees) -> {
            double ls = share(preemptor.job().allocated().add(preemptor.resreq()), total);
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask p : preemptees) {
                double rs = share(p.job().allocated().sub(p.resreq()), total);
                if (ls < rs || Math.abs(ls - rs) <= SHARE_DELTA) victims.add(p);
            }
            return victims;
        });
    }
}
