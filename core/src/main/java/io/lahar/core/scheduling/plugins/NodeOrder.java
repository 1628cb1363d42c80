package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;

/**
 * Volcano's nodeorder plugin: the Kubernetes scoring plugins it wraps, over cpu and memory, each
 * 0..100 times its weight — least-allocated ({@code leastrequested.weight}, default 1),
 * balanced allocation ({@code balancedresource.weight}, default 1) and most-allocated
 * ({@code mostrequested.weight}, default 0).
 *
 * <p>The arithmetic is Kubernetes' own (noderesources in the kube-scheduler Volcano vendors), so
 * that ties and near-ties fall where Volcano's fall: least- and most-allocated score each resource
 * in integers ({@code (capacity - requested) * 100 / capacity}) and take the integer weighted mean
 * (cpu and memory weighted 50:50 for least, 1:1 for most); balanced allocation is
 * {@code (1 - std) * 100} truncated, where std is the standard deviation of the requested fractions
 * (each capped at 1) of cpu, memory and — when the pod requests it and the node has it —
 * nvidia.com/gpu; for two resources std = |cpu - memory| / 2. "Requested" is the node's use plus
 * the task's request.
 */
public final class NodeOrder implements Plugin {
    public static final String NAME = "nodeorder";
    static final double MAX_NODE_SCORE = 100;
    private static final long MAX = 100;
    /** Balanced allocation's third resource in Volcano's arguments to the Kubernetes plugin. */
    static final String GPU = "nvidia.com/gpu";

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
        long cpu = requested.milliCpu();
        long cpuCap = alloc.milliCpu();
        long mem = requested.memory();
        long memCap = alloc.memory();
        double s = 0;
        if (leastRequestedWeight != 0) {
            s += leastRequestedWeight * weightedMean(leastRequested(cpu, cpuCap), cpuCap, leastRequested(mem, memCap), memCap, 50);
        }
        if (mostRequestedWeight != 0) {
            s += mostRequestedWeight * weightedMean(mostRequested(cpu, cpuCap), cpuCap, mostRequested(mem, memCap), memCap, 1);
        }
        if (balancedWeight != 0) {
            s += balancedWeight * balanced(task, node, requested);
        }
        return s;
    }

    /** Kubernetes' leastRequestedScore: the free share after placing, in integer percent. */
    static long leastRequested(long requested, long capacity) {
        if (capacity == 0 || requested > capacity) return 0;
        return (capacity - requested) * MAX / capacity;
    }

    /** Kubernetes' mostRequestedScore: the used share after placing, capped, in integer percent. */
    static long mostRequested(long requested, long capacity) {
        if (capacity == 0) return 0;
        return Math.min(requested, capacity) * MAX / capacity;
    }

    /** The integer weighted mean over the resources the node has (one of zero capacity is skipped). */
    private static long weightedMean(long cpuScore, long cpuCap, long memScore, long memCap, long weight) {
        long sum = 0;
        long weights = 0;
        if (cpuCap > 0) {
            sum += cpuScore * weight;
            weights += weight;
        }
        if (memCap > 0) {
            sum += memScore * weight;
            weights += weight;
        }
        return weights == 0 ? 0 : sum / weights;
    }

    /** Kubernetes' balancedResourceScorer: (1 - std of the requested fractions) * 100, truncated. */
    static long balanced(SessionTask task, SessionNode node, Resource requested) {
        Resource alloc = node.allocatable();
        double[] fractions = new double[3];
        int n = 0;
        n = addFraction(fractions, n, requested.milliCpu(), alloc.milliCpu());
        n = addFraction(fractions, n, requested.memory(), alloc.memory());
        // An extended resource counts only when the pod asks for it (Kubernetes skips it otherwise).
        if (task.resreq().get(GPU) > 0) n = addFraction(fractions, n, requested.get(GPU), alloc.get(GPU));
        double std = 0;
        if (n == 2) {
            std = Math.abs((fractions[0] - fractions[1]) / 2);
        } else if (n > 2) {
            double mean = 0;
            for (int i = 0; i < n; i++) mean += fractions[i];
            mean /= n;
            double sum = 0;
            for (int i = 0; i < n; i++) sum += (fractions[i] - mean) * (fractions[i] - mean);
            std = Math.sqrt(sum / n);
        }
        return (long) ((1 - std) * MAX);
    }

    private static int addFraction(double[] fractions, int n, long requested, long capacity) {
        if (capacity == 0) return n;
        fractions[n] = Math.min(1, (double) requested / capacity);
        return n + 1;
    }
}
