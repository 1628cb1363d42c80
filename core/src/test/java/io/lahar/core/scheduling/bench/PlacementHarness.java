package io.lahar.core.scheduling.bench;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodGroupPhase;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A quick local measurement of placements per second (not a unit test): {@code nodes} nodes of 64
 * cpu (or as given), {@code pods} pending pods in gangs of 8 over 4 queues weighted 1:2:3:4, Volcano's
 * default tiers.
 *
 * <pre>java -cp core/target/classes:core/target/test-classes:$(deps) \
 *   io.lahar.core.scheduling.bench.PlacementHarness 10000 100000 "enqueue, allocate, backfill" 64</pre>
 */
public final class PlacementHarness {
    private PlacementHarness() {
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        String actions = args.length > 2 ? args[2] : "enqueue, allocate, backfill";
        String nodeCpu = args.length > 3 ? args[3] : "64";
        Snapshot s = snapshot(nodes, pods, nodeCpu);
        SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_YAML.replace("enqueue, allocate, backfill", actions));
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            SessionResult r = new Scheduler(conf).schedule(s);
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%d nodes, %d pods: %d bound in %.2fs = %.0f placements/s%n", nodes, pods, r.bindings().size(),
                    secs, r.bindings().size() / secs);
        }
    }

    static Snapshot snapshot(int nodeCount, int podCount, String nodeCpu) {
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(NodeInfo.builder(String.format("node-%05d", i))
                    .allocatable(Map.of("cpu", nodeCpu, "memory", "256Gi", "pods", "110"))
                    .label("zone", "z" + (i % 4)).build());
        }
        List<QueueInfo> queues = new ArrayList<>();
        for (int q = 0; q < 4; q++) queues.add(QueueInfo.of("q" + q, q + 1));
        List<JobInfo> jobs = new ArrayList<>();
        Resource req = Resource.parse(Map.of("cpu", "1", "memory", "2Gi"));
        for (int j = 0; j * 8 < podCount; j++) {
            JobInfo.Builder b = JobInfo.builder("job-" + j).queue("q" + (j % 4)).creationIndex(j).phase(PodGroupPhase.Inqueue);
            for (int t = 0; t < 8; t++) {
                b.task(io.lahar.core.scheduling.api.TaskInfo.builder("job-" + j + "-w-" + t).role("w").resreq(req).build());
            }
            jobs.add(b.minMember(8).build());
        }
        return new Snapshot(nodes, queues, jobs);
    }
}
