package io.lahar.scheduler.cache;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.schema.CreatePod;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The CPU a session's prelude costs the scheduler loop ({@code unconfirmedBindings()} and
 * {@code snapshot()}) when one pod was confirmed since the last session: N nodes, P pods in gangs of
 * 1–64, every pod bound. A main class beside the tests, not a test (docs/BENCHMARKS.md, "Session
 * prelude"); run it with the scheduler-service test classpath:
 * <pre>java -cp ... io.lahar.scheduler.cache.SnapshotBench 10000 100000 20</pre>
 */
public final class SnapshotBench {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int[] NODE_CPU = {32, 64, 96};

    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        int pods = Integer.parseInt(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
        for (int i = 0; i < nodes; i++) {
            String name = String.format("node-%06d", i);
            int cpu = NODE_CPU[i % NODE_CPU.length];
            Map<String, String> allocatable =
                    Map.of("cpu", Integer.toString(cpu), "memory", cpu * 4 + "Gi", "pods", "110");
            cache.onNode(
                    name,
                    Node.newBuilder()
                            .setName(name)
                            .setAllocatable(allocatable)
                            .setCapacity(allocatable)
                            .setLabels(Map.of("zone", "z" + i % 4))
                            .setTaints(List.of())
                            .setUnschedulable(false)
                            .setReady(true)
                            .setTime(T0)
                            .build());
        }
        cache.onQueue(
                "q",
                Queue.newBuilder()
                        .setName("q")
                        .setWeight(1)
                        .setState(QueueState.Open)
                        .setTime(T0)
                        .build());
        SplittableRandom random = new SplittableRandom(42);
        List<PodEvent> confirmations = new ArrayList<>();
        int made = 0;
        for (int g = 0; made < pods; g++) {
            int size = Math.min(1 + random.nextInt(64), pods - made);
            String job = String.format("job-%05d", g);
            String key = "bench/" + job;
            cache.onPodGroup(
                    key,
                    PodGroup.newBuilder()
                            .setNamespace("bench")
                            .setName(job + "-pg")
                            .setJob(job)
                            .setJobVersion(0)
                            .setCreationTimestamp(T0.plusMillis(g))
                            .setSpec(PodGroupSpec.newBuilder()
                                    .setMinMember(size)
                                    .setQueue("q")
                                    .setPriority(10)
                                    .build())
                            .setStatus(PodGroupStatus.newBuilder()
                                    .setPhase("Running")
                                    .setConditions(List.of())
                                    .build())
                            .setTime(T0)
                            .build());
            for (int p = 0; p < size; p++, made++) {
                String pod = job + "-worker-" + p;
                String node = String.format("node-%06d", made % nodes);
                cache.onPodIntent(
                        key,
                        PodIntent.newBuilder()
                                .setNamespace("bench")
                                .setJob(job)
                                .setTime(T0)
                                .setIntent(CreatePod.newBuilder()
                                        .setPod(pod)
                                        .setTask("worker")
                                        .setIndex(p)
                                        .setJobVersion(0)
                                        .setPodGroup(job + "-pg")
                                        .setSchedulerName("volcano")
                                        .setTemplate("{}")
                                        .setRequests(Map.of("cpu", "1", "memory", "1Gi"))
                                        .build())
                                .build());
                cache.assumeBinding(key, pod, node, 0);
                confirmations.add(PodEvent.newBuilder()
                        .setNamespace("bench")
                        .setJob(job)
                        .setPod(pod)
                        .setTask("worker")
                        .setIndex(p)
                        .setJobVersion(0)
                        .setPhase("Running")
                        .setNode(node)
                        .setDeleted(false)
                        .setContainers(new ArrayList<>())
                        .setTime(T0)
                        .build());
            }
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        long total = 0;
        int warmup = 3;
        for (int r = 0; r < rounds + warmup; r++) {
            PodEvent confirmed = confirmations.get(r);
            cache.onPodEvent("bench/" + confirmed.getJob(), confirmed);
            long started = mx.getCurrentThreadCpuTime();
            int unconfirmed = cache.unconfirmedBindings();
            Snapshot snapshot = cache.snapshot();
            long cpu = mx.getCurrentThreadCpuTime() - started;
            if (unconfirmed != pods - r - 1 || snapshot.nodes().size() != nodes) {
                throw new IllegalStateException("unexpected cache state: " + unconfirmed + " unconfirmed");
            }
            if (r >= warmup) {
                best = Math.min(best, cpu);
                total += cpu;
            }
        }
        System.out.printf(
                "%d nodes x %d pods: unconfirmedBindings() + snapshot() CPU best %.2f ms, mean %.2f ms (%d rounds)%n",
                nodes, pods, best / 1e6, total / 1e6 / rounds, rounds);
    }
}
