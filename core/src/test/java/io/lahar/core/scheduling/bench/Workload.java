package io.lahar.core.scheduling.bench;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodGroupPhase;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The benchmark's cluster, the same for a given seed: nodes of three shapes (32, 64 and 96 cpu,
 * 4 GiB per cpu, 110 pods) in four zones; pending gangs of 1 to 64 pods (minMember the whole
 * gang), each gang one request drawn from 500m/1/2/4 cpu and 1/2/4/8 GiB, priorities 0/10/100,
 * spread over three queues weighted 1:2:3 until {@code pods} pods exist.
 */
final class Workload {
    private static final String[] CPU = {"500m", "1", "2", "4"};
    private static final String[] MEMORY = {"1Gi", "2Gi", "4Gi", "8Gi"};
    private static final int[] NODE_CPU = {32, 64, 96};
    private static final int[] PRIORITY = {0, 10, 100};

    private Workload() {
    }

    static Snapshot mixed(int nodeCount, int podCount, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<NodeInfo> nodes = new ArrayList<>(nodeCount);
        for (int i = 0; i < nodeCount; i++) {
            int cpu = NODE_CPU[i % NODE_CPU.length];
            nodes.add(NodeInfo.builder(String.format("node-%06d", i))
                    .allocatable(Map.of("cpu", Integer.toString(cpu), "memory", (cpu * 4) + "Gi", "pods", "110"))
                    .label("zone", "z" + (i % 4)).build());
        }
        List<QueueInfo> queues = List.of(QueueInfo.of("q1", 1), QueueInfo.of("q2", 2), QueueInfo.of("q3", 3));
        List<JobInfo> jobs = new ArrayList<>();
        int pods = 0;
        for (int j = 0; pods < podCount; j++) {
            int size = Math.min(1 + rnd.nextInt(64), podCount - pods);
            Resource req = Resource.parse(Map.of("cpu", CPU[rnd.nextInt(CPU.length)], "memory", MEMORY[rnd.nextInt(MEMORY.length)]));
            int priority = PRIORITY[rnd.nextInt(PRIORITY.length)];
            String name = "job-" + j;
            JobInfo.Builder b = JobInfo.builder(name).queue("q" + (1 + j % 3)).priority(priority).creationIndex(j)
                    .phase(PodGroupPhase.Pending).minMember(size);
            for (int t = 0; t < size; t++) {
                b.task(TaskInfo.builder(name + "-w-" + t).role("w").resreq(req).priority(priority).build());
            }
            jobs.add(b.build());
            pods += size;
        }
        return new Snapshot(nodes, queues, jobs);
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
