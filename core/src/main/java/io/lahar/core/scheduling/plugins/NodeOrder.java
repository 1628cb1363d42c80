package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;

/**
 * Volcano's nodeorder plugin, the Kubernetes scoring functions over cpu and memory, each 0..100
 * times its weight: least-requested (prefer emptier nodes, {@code leastrequested.weight}, default 1),
 * balanced resource allocation (prefer nodes whose cpu and memory fill evenly,
 * {@code balancedresource.weight}, default 1) and most-requested ({@code mostrequested.weight},
 * default 0).
 */
public final class NodeOrder implements Plugin {
    public static final String NAME = "nodeorder";
    static final double MAX_NODE_SCORE = 100;

    private final double leastRequestedWeight;
    private final double balancedWeight;
    private final double mostRequestedWeight;

    public NodeOrder(Arguments args) {
        this.leastRequestedWeight = args.getDouble("leastrequested.weight", 1);
        this.balancedWeight = args.getDouble("balancedresource.weight", 1);
        this.mostRequestedWeight = args.getDouble("mostrequested.weight", 0);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        if (leastRequestedWeight == 0 && balancedWeight == 0 && mostRequestedWeight == 0) {
            return;
        }
        ssn.addNodeOrderFn(NAME, this::score);
    }

    double score(SessionTask task, SessionNode node) {
        Resource alloc = node.allocatable();
        Resource requested = node.used().add(task.resreq());
        double cpu = fraction(requested.milliCpu(), alloc.milliCpu());
        double mem = fraction(requested.memory(), alloc.memory());
        double s = 0;
        if (leastRequestedWeight != 0) {
            s += leastRequestedWeight * MAX_NODE_SCORE * ((1 - cpu) + (1 - mem)) / 2;
        }
        if (mostRequestedWeight != 0) {
            s += mostRequestedWeight * MAX_NODE_SCORE * (cpu + mem) / 2;
        }
        if (balancedWeight != 0 && cpu < 1 && mem < 1) {
            s += balancedWeight * MAX_NODE_SCORE * (1 - Math.abs(cpu - mem));
        }
        return s;
    }

    /** Requested over capacity, capped at 1 (Kubernetes scores an overfull node as full). */
    private static double fraction(long requested, long capacity) {
        if (capacity <= 0) {
            return 1;
        }
        return Math.min(1, (double) requested / capacity);
    }
}
