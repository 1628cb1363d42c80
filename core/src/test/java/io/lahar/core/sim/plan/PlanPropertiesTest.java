package io.lahar.core.sim.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.framework.SchedulerConf;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Plans of random snapshots (nodes, queues, priorities, running gangs and new jobs, with preempt
 * and reclaim on): no node ends over its cpu, a new gang is placed whole or not at all, the plan
 * settles, and the same input gives the same output.
 */
class PlanPropertiesTest {

    /**
     * Preempt and reclaim, with gang's and drf's preemptable off as in Volcano's Helm chart: with
     * them on, victims the first tier refuses are left to drf's shares, and equal jobs preempt each
     * other for good (Volcano's issue 390), which no plan settles.
     */
    private static final SchedulerConf ALL_ACTIONS = SchedulerConf.parse(PlanScenarios.PREEMPT_CONF
            .replace("enqueue, allocate, preempt, backfill", "enqueue, allocate, preempt, reclaim, backfill")
            .replace("  - name: gang\n", "  - name: gang\n    enablePreemptable: false\n")
            .replace("  - name: drf\n", "  - name: drf\n    enablePreemptable: false\n"));

    private record Scenario(
            String yaml,
            Map<String, Integer> nodeCpu,
            Map<String, Integer> podCpu,
            Map<String, String> existingNode,
            Map<String, Integer> newJobMin) {}

    @Test
    void randomSnapshotsPlanSafely() {
        int bindings = 0;
        int evictions = 0;
        for (long seed = 1; seed <= 40; seed++) {
            Scenario s = scenario(new SplittableRandom(seed));
            PlanReport r = PlanScenarios.plan(s.yaml(), ALL_ACTIONS, null);
            String why = "seed " + seed + "\n" + r.toYaml();
            assertThat(r.converged()).as(why).isTrue();
            Map<String, Integer> used = new HashMap<>();
            Set<String> evicted = new HashSet<>();
            r.evictions().forEach(e -> evicted.add(e.pod()));
            s.existingNode().forEach((pod, node) -> {
                boolean rebound = r.bindings().stream().anyMatch(b -> b.pod().equals(pod));
                if (!evicted.contains(pod) && !rebound)
                    used.merge(node, s.podCpu().get(pod), Integer::sum);
            });
            for (PlanReport.Binding b : r.bindings())
                used.merge(b.node(), s.podCpu().get(b.pod()), Integer::sum);
            used.forEach((node, cpu) -> assertThat(cpu)
                    .as(why + "\nnode " + node)
                    .isLessThanOrEqualTo(s.nodeCpu().get(node)));
            s.newJobMin().forEach((job, min) -> {
                long bound = PlanScenarios.boundOf(r, job);
                assertThat(bound == 0 || bound >= min)
                        .as(why + "\njob " + job + " bound " + bound + " of min " + min)
                        .isTrue();
            });
            assertThat(PlanScenarios.plan(s.yaml(), ALL_ACTIONS, null).toYaml()).isEqualTo(r.toYaml());
            bindings += r.bindings().size();
            evictions += r.evictions().size();
        }
        // The scenarios do exercise placement and eviction.
        assertThat(bindings).isGreaterThan(40);
        assertThat(evictions).isPositive();
    }

    private static Scenario scenario(SplittableRandom rnd) {
        StringBuilder y = new StringBuilder();
        Map<String, Integer> nodeCpu = new HashMap<>();
        Map<String, Integer> podCpu = new HashMap<>();
        Map<String, String> existing = new HashMap<>();
        Map<String, Integer> newJobMin = new HashMap<>();
        int nodes = 1 + rnd.nextInt(5);
        for (int i = 0; i < nodes; i++) {
            int cpu = 2 + rnd.nextInt(7);
            nodeCpu.put("n" + i, cpu);
            y.append(PlanScenarios.node("n" + i, Integer.toString(cpu), ""));
        }
        y.append(PlanScenarios.queue("qa", 1 + rnd.nextInt(3), ""))
                .append(PlanScenarios.queue("qb", 1 + rnd.nextInt(3), ""));
        y.append(PlanScenarios.priorityClass("low", 1)).append(PlanScenarios.priorityClass("high", 100));
        List<String> queues = List.of("default", "qa", "qb");
        Map<String, Integer> free = new HashMap<>(nodeCpu);
        int running = rnd.nextInt(3);
        for (int j = 0; j < running; j++) {
            String name = "run" + j;
            String queue = queues.get(rnd.nextInt(3));
            String cls = rnd.nextBoolean() ? "low" : "high";
            int count = 1 + rnd.nextInt(3);
            int placed = 0;
            StringBuilder pods = new StringBuilder();
            for (int i = 0; i < count; i++) {
                String node = null;
                for (Map.Entry<String, Integer> f : free.entrySet())
                    if (f.getValue() >= 1 && (node == null || f.getKey().compareTo(node) < 0)) node = f.getKey();
                if (node == null) break;
                free.merge(node, -1, Integer::sum);
                String pod = name + "-w-" + i;
                podCpu.put(pod, 1);
                existing.put(pod, node);
                pods.append(PlanScenarios.pod(name, i, node, "1", cls, ""));
                placed++;
            }
            if (placed == 0) continue;
            y.append(PlanScenarios.runningGroup(name, queue, 1, cls)).append(pods);
        }
        int jobs = 1 + rnd.nextInt(4);
        for (int j = 0; j < jobs; j++) {
            String name = "new" + j;
            int replicas = 1 + rnd.nextInt(4);
            int min = 1 + rnd.nextInt(replicas);
            int cpu = 1 + rnd.nextInt(2);
            for (int i = 0; i < replicas; i++) podCpu.put(name + "-w-" + i, cpu);
            newJobMin.put(name, min);
            String extra = rnd.nextBoolean() ? "priorityClassName: high" : "";
            String queue = queues.get(rnd.nextInt(3));
            y.append(PlanScenarios.job(
                    name, queue, replicas, min, Integer.toString(cpu), "2026-01-01T00:00:0" + j + "Z", extra, ""));
            if (rnd.nextInt(3) == 0) y.append(PlanScenarios.inqueue(name, queue, min)); // already past enqueue
        }
        return new Scenario(y.toString(), nodeCpu, podCpu, existing, newJobMin);
    }
}
