package io.lahar.core.scheduling.bench;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Placements per second of the scheduling core (not a unit test; {@code bin/bench-scheduler} runs it).
 * One session of Volcano's default configuration (enqueue, allocate, backfill; priority, gang,
 * conformance / overcommit, drf, predicates, proportion, nodeorder) over a
 * {@link Workload#mixed} cluster, timed from the snapshot to the session result; with
 * {@code --constrained}, over {@link Workload#constrained} (a fifth of the pods with a required
 * anti-affinity or a DoNotSchedule spread).
 *
 * <pre>
 * PlacementHarness                       the suite: 1k x 10k, 10k x 100k, an oversubscribed cluster,
 *                                        the constrained workload, session time as the cluster
 *                                        grows and as pods grow
 * PlacementHarness [--constrained] NODES PODS [ROUNDS] [ACTIONS]   one measurement
 * </pre>
 */
public final class PlacementHarness {
    private static final long SEED = 42;

    private PlacementHarness() {}

    public static void main(String[] args) {
        boolean constrained = args.length > 0 && args[0].equals("--constrained");
        if (constrained) args = Arrays.copyOfRange(args, 1, args.length);
        if (args.length >= 2) {
            int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
            String actions = args.length > 3 ? args[3] : "enqueue, allocate, backfill";
            header();
            measure(Integer.parseInt(args[0]), Integer.parseInt(args[1]), rounds, actions, constrained);
            return;
        }
        System.out.printf(
                "# java %s, %d cpus, max heap %d MiB%n",
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        header();
        measure(1_000, 10_000, 5, "enqueue, allocate, backfill");
        measure(10_000, 100_000, 3, "enqueue, allocate, backfill");
        System.out.println("# oversubscribed: twice the pods the cluster can hold");
        measure(1_000, 70_000, 3, "enqueue, allocate, backfill");
        System.out.println(
                "# constrained: a fifth of the pods with a required anti-affinity or a DoNotSchedule spread");
        measure(1_000, 10_000, 5, "enqueue, allocate, backfill", true);
        measure(10_000, 100_000, 3, "enqueue, allocate, backfill", true);
        System.out.println("# session time as the cluster grows (10 pods per node)");
        for (int n : new int[] {500, 1_000, 2_000, 5_000, 10_000, 20_000})
            measure(n, n * 10, 3, "enqueue, allocate, backfill");
        System.out.println("# session time as pods grow on 10k nodes");
        for (int p : new int[] {12_500, 25_000, 50_000, 100_000, 200_000})
            measure(10_000, p, 3, "enqueue, allocate, backfill");
    }

    private static void header() {
        System.out.println(
                "nodes    pods     gangs  cpu-demand/capacity  bound    wall-ms(best/median)  cpu-ms(best)  placements/cpu-s  placements/wall-s  cpu-us/pod");
    }

    static void measure(int nodes, int pods, int rounds, String actions) {
        measure(nodes, pods, rounds, actions, false);
    }

    static void measure(int nodes, int pods, int rounds, String actions, boolean constrained) {
        Snapshot s = constrained ? Workload.constrained(nodes, pods, SEED) : Workload.mixed(nodes, pods, SEED);
        if (constrained) System.out.printf("# %d of %d pods constrained%n", Workload.constrainedPods(s), pods);
        SchedulerConf conf =
                SchedulerConf.parse(SchedulerConf.DEFAULT_YAML.replace("enqueue, allocate, backfill", actions));
        // Thread CPU time as well as wall time: on a shared machine the wall clock also counts the
        // time other processes held the cores; the session runs on this one thread.
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] wall = new long[rounds];
        long[] cpu = new long[rounds];
        int bound = 0;
        for (int r = 0; r < rounds + 1; r++) { // the first round warms the JIT and is not counted
            System.gc();
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            SessionResult result = new Scheduler(conf).schedule(s);
            long t = System.nanoTime() - t0;
            long c = mx.getCurrentThreadCpuTime() - c0;
            bound = result.bindings().size();
            if (r > 0) {
                wall[r - 1] = t;
                cpu[r - 1] = c;
            }
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        double bestWall = wall[0] / 1e6;
        double medianWall = wall[rounds / 2] / 1e6;
        double bestCpu = cpu[0] / 1e6;
        System.out.printf(
                Locale.ROOT,
                "%-8d %-8d %-6d %8.0f/%-10.0f %-8d %7.0f/%-13.0f %-13.0f %-17.0f %-18.0f %.1f%n",
                nodes,
                pods,
                s.jobs().size(),
                Workload.requestedCpu(s),
                Workload.capacityCpu(s),
                bound,
                bestWall,
                medianWall,
                bestCpu,
                bound / (bestCpu / 1e3),
                bound / (bestWall / 1e3),
                bestCpu * 1e3 / pods);
    }
}
