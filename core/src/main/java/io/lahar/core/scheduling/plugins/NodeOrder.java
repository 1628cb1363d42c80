package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.PreferredSchedulingTerm;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's nodeorder plugin: the Kubernetes scoring plugins it wraps, each 0..100 times its
 * weight (Volcano's argument names and defaults) — least-allocated ({@code leastrequested.weight},
 * 1), most-allocated ({@code mostrequested.weight}, 0), balanced allocation
 * ({@code balancedresource.weight}, 1), image locality ({@code imagelocality.weight}, 1), and the
 * scores Kubernetes normalizes over the candidate nodes: preferred node affinity
 * ({@code nodeaffinity.weight}, 2), taint toleration ({@code tainttoleration.weight}, 3), preferred
 * inter-pod affinity ({@code podaffinity.weight}, 2) and ScheduleAnyway topology spread
 * ({@code podtopologyspread.weight}, 2). Weights are integers, as Volcano reads them.
 *
 * <p>The resource arithmetic is Kubernetes' own (noderesources in the kube-scheduler Volcano
 * vendors), so that ties and near-ties fall where Volcano's fall: least- and most-allocated score
 * each resource in integers ({@code (capacity - requested) * 100 / capacity}) and take the integer
 * weighted mean (cpu and memory weighted 50:50 for least, 1:1 for most); balanced allocation is
 * {@code (1 - std) * 100} truncated, where std is the standard deviation of the requested
 * fractions (each capped at 1) of cpu, memory and — when the pod requests it and the node has it —
 * nvidia.com/gpu; for two resources std = |cpu - memory| / 2. "Requested" is the node's use plus
 * the task's request. These and image locality depend only on the node and the task, so the
 * candidate index can hold them; the normalized ones are registered as a batch score, which a task
 * they concern gets over a scan of the candidates (see {@link Functions.BatchNodeOrderFn}).
 */
public final class NodeOrder implements Plugin {
    public static final String NAME = "nodeorder";
    static final long MAX_NODE_SCORE = 100;
    private static final long MAX = 100;
    /** Balanced allocation's third resource in Volcano's arguments to the Kubernetes plugin. */
    static final String GPU = "nvidia.com/gpu";

    private final int leastRequestedWeight;
    private final int balancedWeight;
    private final int mostRequestedWeight;
    private final int nodeAffinityWeight;
    private final int podAffinityWeight;
    private final int taintTolerationWeight;
    private final int imageLocalityWeight;
    private final int podTopologySpreadWeight;
    private ImageLocality imageLocality;

    public NodeOrder(Arguments args) {
        this.leastRequestedWeight = args.getInt("leastrequested.weight", 1);
        this.balancedWeight = args.getInt("balancedresource.weight", 1);
        this.mostRequestedWeight = args.getInt("mostrequested.weight", 0);
        this.nodeAffinityWeight = args.getInt("nodeaffinity.weight", 2);
        this.podAffinityWeight = args.getInt("podaffinity.weight", 2);
        this.taintTolerationWeight = args.getInt("tainttoleration.weight", 3);
        this.imageLocalityWeight = args.getInt("imagelocality.weight", 1);
        this.podTopologySpreadWeight = args.getInt("podtopologyspread.weight", 2);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        if (imageLocalityWeight != 0) imageLocality = new ImageLocality(ssn.nodes());
        if (leastRequestedWeight != 0 || balancedWeight != 0 || mostRequestedWeight != 0 || imageLocalityWeight != 0) {
            ssn.addNodeOrderFn(NAME, this::score);
        }
        TaintToleration taints = taintTolerationWeight == 0 ? null : new TaintToleration(ssn.nodes());
        boolean interPod = ssn.hasInterPodRules();
        PodTopologySpread spread = interPod && podTopologySpreadWeight != 0 ? new PodTopologySpread(ssn) : null;
        if (nodeAffinityWeight == 0 && taints == null && !(interPod && podAffinityWeight != 0) && spread == null)
            return;
        ssn.addBatchNodeOrderFn(NAME, task -> {
            List<BatchScorer> scorers = new ArrayList<>(4);
            if (nodeAffinityWeight != 0
                    && !task.info().spec().preferredNodeAffinity().isEmpty()) {
                scorers.add(preferredNodeAffinity(task.info().spec().preferredNodeAffinity(), nodeAffinityWeight));
            }
            if (taints != null) add(scorers, taints.scorer(task.info().tolerations(), taintTolerationWeight));
            if (interPod && podAffinityWeight != 0)
                add(scorers, InterPodAffinity.scorer(ssn.podTopology(), task, podAffinityWeight));
            if (spread != null) add(scorers, spread.scorer(task, podTopologySpreadWeight));
            if (scorers.isEmpty()) return null;
            return (candidates, scores) -> {
                for (BatchScorer s : scorers) s.score(candidates, scores);
            };
        });
    }

    private static void add(List<BatchScorer> scorers, BatchScorer s) {
        if (s != null) scorers.add(s);
    }

    /** Kubernetes' NodeAffinity score: the weights of the preferred terms the node matches, normalized to the most. */
    private static BatchScorer preferredNodeAffinity(List<PreferredSchedulingTerm> terms, int weight) {
        return (candidates, scores) -> {
            long[] raw = new long[candidates.size()];
            for (int i = 0; i < raw.length; i++) {
                SessionNode n = candidates.get(i);
                for (PreferredSchedulingTerm t : terms) {
                    if (t.preference().matches(n.info().labels(), n.name())) raw[i] += t.weight();
                }
            }
            long[] normalized = defaultNormalize(raw, false);
            for (int i = 0; i < raw.length; i++) scores[i] += weight * (double) normalized[i];
        };
    }

    /**
     * Kubernetes' DefaultNormalizeScore: each score times 100 over the largest (integer division),
     * reversed (100 minus that) when asked; all 0 — or all 100 reversed — when the largest is 0.
     */
    static long[] defaultNormalize(long[] raw, boolean reverse) {
        long max = 0;
        for (long r : raw) max = Math.max(max, r);
        long[] out = new long[raw.length];
        for (int i = 0; i < raw.length; i++) {
            long s = max == 0 ? 0 : MAX_NODE_SCORE * raw[i] / max;
            out[i] = reverse ? MAX_NODE_SCORE - s : s;
        }
        return out;
    }

    double score(SessionTask task, SessionNode node) {
        double s = 0;
        if (imageLocality != null) {
            s += imageLocalityWeight * (double) imageLocality.score(task, node);
        }
        if (leastRequestedWeight == 0 && mostRequestedWeight == 0 && balancedWeight == 0) return s;
        Resource alloc = node.allocatable();
        Resource requested = node.used().add(task.resreq());
        long cpu = requested.milliCpu();
        long cpuCap = alloc.milliCpu();
        long mem = requested.memory();
        long memCap = alloc.memory();
        if (leastRequestedWeight != 0) {
            s += leastRequestedWeight
                    * weightedMean(leastRequested(cpu, cpuCap), cpuCap, leastRequested(mem, memCap), memCap, 50);
        }
        if (mostRequestedWeight != 0) {
            s += mostRequestedWeight
                    * weightedMean(mostRequested(cpu, cpuCap), cpuCap, mostRequested(mem, memCap), memCap, 1);
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
