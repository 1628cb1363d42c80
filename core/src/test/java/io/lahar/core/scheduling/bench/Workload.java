package io.lahar.core.scheduling.bench;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The benchmark's cluster, the same for a given seed: nodes of three shapes (32, 64 and 96 cpu,
 * 4 GiB per cpu, 110 pods) in four zones; pending gangs of 1 to 64 pods (minMember the whole
 * gang), each gang one request drawn from 500m/1/2/4 cpu and 1/2/4/8 GiB, priorities 0/10/100,
 * spread over three queues weighted 1:2:3 until {@code pods} pods exist.
 *
 * <p>{@link #constrained}: the same, with Kubernetes' hostname and zone labels on the nodes, every
 * pod labelled {@code app: <its gang>}, and gangs holding a fifth of the pods constrained among
 * themselves, alternately by a required anti-affinity on the hostname (one pod of the gang a node)
 * and by a DoNotSchedule spread over the zones. The spread's maxSkew is a quarter of the gang
 * (rounded up): allocate's predicate error cache (on by default, as in Volcano) keeps a zone refused
 * once for the rest of the job's turn, so with maxSkew 1 a gang of more than five pods over four
 * zones could never be placed whole.
 */
final class Workload {
    private static final String[] CPU = {"500m", "1", "2", "4"};
    private static final String[] MEMORY = {"1Gi", "2Gi", "4Gi", "8Gi"};
    private static final int[] NODE_CPU = {32, 64, 96};
    private static final int[] PRIORITY = {0, 10, 100};

    private Workload() {}

    static final String HOSTNAME = "kubernetes.io/hostname";
    static final String ZONE = "topology.kubernetes.io/zone";

    static Snapshot mixed(int nodeCount, int podCount, long seed) {
        return build(nodeCount, podCount, seed, false);
    }

    static Snapshot constrained(int nodeCount, int podCount, long seed) {
        return build(nodeCount, podCount, seed, true);
    }

    private static Snapshot build(int nodeCount, int podCount, long seed, boolean constrained) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<NodeInfo> nodes = new ArrayList<>(nodeCount);
        for (int i = 0; i < nodeCount; i++) {
            int cpu = NODE_CPU[i % NODE_CPU.length];
            String name = String.format("node-%06d", i);
            NodeInfo.Builder b = NodeInfo.builder(name)
                    .allocatable(Map.of("cpu", Integer.toString(cpu), "memory", (cpu * 4) + "Gi", "pods", "110"));
            if (constrained) b.label(HOSTNAME, name).label(ZONE, "z" + (i % 4));
            else b.label("zone", "z" + (i % 4));
            nodes.add(b.build());
        }
        List<QueueInfo> queues = List.of(QueueInfo.of("q1", 1), QueueInfo.of("q2", 2), QueueInfo.of("q3", 3));
        List<JobInfo> jobs = new ArrayList<>();
        int pods = 0;
        int constrainedPods = 0;
        int constrainedGangs = 0;
        for (int j = 0; pods < podCount; j++) {
            int size = Math.min(1 + rnd.nextInt(64), podCount - pods);
            Resource req = Resource.parse(
                    Map.of("cpu", CPU[rnd.nextInt(CPU.length)], "memory", MEMORY[rnd.nextInt(MEMORY.length)]));
            int priority = PRIORITY[rnd.nextInt(PRIORITY.length)];
            String name = "job-" + j;
            JobInfo.Builder b = JobInfo.builder(name)
                    .queue("q" + (1 + j % 3))
                    .priority(priority)
                    .creationIndex(j)
                    .phase(PodGroupPhase.Pending)
                    .minMember(size);
            PodSpec spec = null;
            if (constrained) {
                boolean constrain = (long) constrainedPods * 5 < pods + size;
                spec = constrain
                        ? constraint(name, size, constrainedGangs++ % 2 == 0)
                        : PodSpec.labels(Map.of("app", name));
                if (constrain) constrainedPods += size;
            }
            for (int t = 0; t < size; t++) {
                TaskInfo.Builder tb =
                        TaskInfo.builder(name + "-w-" + t).role("w").resreq(req).priority(priority);
                if (spec != null) tb.spec(spec);
                b.task(tb.build());
            }
            jobs.add(b.build());
            pods += size;
        }
        return new Snapshot(nodes, queues, jobs);
    }

    /** The gang's pods repel each other per node, or spread over the four zones. */
    private static PodSpec constraint(String app, int size, boolean antiAffinity) {
        LabelSelector own = LabelSelector.of(Map.of("app", app));
        if (antiAffinity) {
            return new PodSpec(
                    Map.of("app", app),
                    null,
                    null,
                    List.of(new PodAffinityTerm(own, null, null, HOSTNAME)),
                    null,
                    null,
                    null,
                    null,
                    null);
        }
        return new PodSpec(
                Map.of("app", app),
                null,
                null,
                null,
                null,
                null,
                List.of(new TopologySpreadConstraint(
                        (size + 3) / 4,
                        ZONE,
                        TopologySpreadConstraint.WhenUnsatisfiable.DoNotSchedule,
                        own,
                        1,
                        null,
                        null)),
                null,
                null);
    }

    /** How many pods carry a required anti-affinity or a DoNotSchedule spread. */
    static int constrainedPods(Snapshot s) {
        int n = 0;
        for (JobInfo j : s.jobs()) {
            for (TaskInfo t : j.tasks()) {
                if (!t.spec().requiredAntiAffinity().isEmpty()
                        || !t.spec().topologySpread().isEmpty()) n++;
            }
        }
        return n;
    }

    /** Total cpu the pending pods request, in cores (to tell how full the cluster will be). */
    static double requestedCpu(Snapshot s) {
        long m = 0;
        for (JobInfo j : s.jobs()) for (TaskInfo t : j.tasks()) m += t.resreq().milliCpu();
        return m / 1000.0;
    }

    static double capacityCpu(Snapshot s) {
        long m = 0;
        for (NodeInfo n : s.nodes()) m += n.allocatable().milliCpu();
        return m / 1000.0;
    }
}
