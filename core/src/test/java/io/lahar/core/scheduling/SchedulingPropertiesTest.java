package io.lahar.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Invariants over random clusters: nodes with labels, taints and pod limits; weighted, capped,
 * partly non-reclaimable queues; gangs with roles, priorities and some tasks already running.
 */
class SchedulingPropertiesTest {

    private static final SchedulerConf ALL_ACTIONS =
            Fixtures.defaultTiers("enqueue, allocate, backfill, preempt, reclaim");

    /** A random snapshot from a seed (jqwik varies the seed; the snapshot is a pure function of it). */
    static Snapshot randomSnapshot(long seed) {
        Random rnd = new Random(seed);
        List<NodeInfo> nodes = new ArrayList<>();
        int nodeCount = 1 + rnd.nextInt(6);
        for (int i = 0; i < nodeCount; i++) {
            NodeInfo.Builder b = NodeInfo.builder("n" + i)
                    .allocatable(Map.of(
                            "cpu",
                            (1 + rnd.nextInt(8)) + "",
                            "memory",
                            (1 + rnd.nextInt(16)) + "Gi",
                            "pods",
                            (2 + rnd.nextInt(8)) + "",
                            "nvidia.com/gpu",
                            rnd.nextInt(3) + ""));
            b.label("zone", rnd.nextBoolean() ? "a" : "b");
            if (rnd.nextInt(4) == 0) b.taint("dedicated", "x", TaintEffect.NoSchedule);
            if (rnd.nextInt(10) == 0) b.unschedulable(true);
            nodes.add(b.build());
        }
        List<QueueInfo> queues = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            QueueInfo q = QueueInfo.of("q" + i, 1 + rnd.nextInt(4)).withReclaimable(rnd.nextBoolean());
            if (rnd.nextInt(3) == 0) q = q.withCapability(Map.of("cpu", (1 + rnd.nextInt(10)) + ""));
            queues.add(q);
        }
        Map<String, Resource> free = new HashMap<>();
        Map<String, Integer> freePods = new HashMap<>();
        for (NodeInfo n : nodes) {
            free.put(n.name(), n.allocatable().withPods(0));
            freePods.put(n.name(), (int) n.allocatable().pods());
        }
        List<JobInfo> jobs = new ArrayList<>();
        int jobCount = 1 + rnd.nextInt(8);
        for (int j = 0; j < jobCount; j++) {
            String name = "j" + j;
            JobInfo.Builder b = JobInfo.builder(name)
                    .queue("q" + rnd.nextInt(3))
                    .priority(rnd.nextInt(4))
                    .creationIndex(j);
            int taskCount = 1 + rnd.nextInt(5);
            boolean running = rnd.nextInt(3) == 0;
            int placed = 0;
            for (int t = 0; t < taskCount; t++) {
                String role = t % 2 == 0 ? "worker" : "ps";
                Map<String, String> req = new HashMap<>();
                if (rnd.nextInt(6) != 0) req.put("cpu", (250 * (1 + rnd.nextInt(12))) + "m");
                if (rnd.nextBoolean()) req.put("memory", (256 * (1 + rnd.nextInt(8))) + "Mi");
                if (rnd.nextInt(8) == 0) req.put("nvidia.com/gpu", "1");
                TaskInfo.Builder tb = TaskInfo.builder(name + "-" + role + "-" + t)
                        .role(role)
                        .resreq(req)
                        .priority(rnd.nextInt(4))
                        .preemptable(rnd.nextInt(5) != 0);
                if (rnd.nextInt(5) == 0) tb.nodeSelector("zone", rnd.nextBoolean() ? "a" : "b");
                if (rnd.nextInt(3) == 0) tb.toleration(Toleration.exists("dedicated", null));
                Resource r = Resource.parse(req);
                if (running) {
                    for (NodeInfo n : nodes) {
                        if (r.lessEqual(free.get(n.name())) && freePods.get(n.name()) > 0) {
                            free.put(n.name(), free.get(n.name()).sub(r));
                            freePods.merge(n.name(), -1, Integer::sum);
                            tb.on(n.name(), TaskStatus.Running);
                            placed++;
                            break;
                        }
                    }
                }
                b.task(tb.build());
            }
            int minMember =
                    running ? Math.max(1, Math.min(placed, 1 + rnd.nextInt(taskCount))) : 1 + rnd.nextInt(taskCount);
            b.minMember(minMember);
            if (rnd.nextInt(4) == 0) b.minTaskMember("worker", 1);
            b.phase(
                    running && placed >= minMember
                            ? PodGroupPhase.Running
                            : rnd.nextBoolean() ? PodGroupPhase.Inqueue : PodGroupPhase.Pending);
            jobs.add(b.build());
        }
        return new Snapshot(nodes, queues, jobs);
    }

    @Property(tries = 300)
    void noNodeIsEverOverCommitted(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        assertNoNodeOverCommitted(s, new Scheduler(ALL_ACTIONS).schedule(s));
    }

    /** No node holds more than its allocatable, now or once the evicted pods are gone and the pipelined ones arrive. */
    static void assertNoNodeOverCommitted(Snapshot s, SessionResult r) {
        Map<String, Resource> now = new HashMap<>();
        Map<String, Resource> future = new HashMap<>();
        Set<String> evicted = new HashSet<>();
        for (SessionResult.Eviction e : r.evictions()) evicted.add(e.job() + "/" + e.task());
        for (JobInfo j : s.jobs()) {
            for (TaskInfo t : j.tasks()) {
                if (t.nodeName() == null || !t.status().occupiesNode()) continue;
                Resource req = t.resreq().withPods(1);
                now.merge(t.nodeName(), req, Resource::add);
                if (!evicted.contains(j.key() + "/" + t.name())) future.merge(t.nodeName(), req, Resource::add);
            }
        }
        Map<String, Resource> requests = new HashMap<>();
        for (JobInfo j : s.jobs())
            for (TaskInfo t : j.tasks())
                requests.put(j.key() + "/" + t.name(), t.resreq().withPods(1));
        for (SessionResult.Binding b : r.bindings()) {
            now.merge(b.node(), requests.get(b.job() + "/" + b.task()), Resource::add);
            future.merge(b.node(), requests.get(b.job() + "/" + b.task()), Resource::add);
        }
        for (SessionResult.Nomination n : r.nominations()) {
            future.merge(n.node(), requests.get(n.job() + "/" + n.task()), Resource::add);
        }
        for (NodeInfo n : s.nodes()) {
            Resource alloc = n.allocatable();
            assertThat(now.getOrDefault(n.name(), Resource.EMPTY).lessEqual(alloc))
                    .as("node %s now", n.name())
                    .isTrue();
            assertThat(future.getOrDefault(n.name(), Resource.EMPTY).lessEqual(alloc))
                    .as("node %s after evictions", n.name())
                    .isTrue();
        }
    }

    @Property(tries = 300)
    void aGangIsBoundWholeOrNotAtAll(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        assertGangsWhole(s, new Scheduler(ALL_ACTIONS).schedule(s));
    }

    /**
     * A job with bindings has at least minMember (and each role its minTaskMember) holding nodes or
     * left pending as best-effort tasks, which Volcano's gang counts as ready (backfill may find
     * them no pod slot).
     */
    static void assertGangsWhole(Snapshot s, SessionResult r) {
        for (JobInfo j : s.jobs()) {
            List<SessionResult.Binding> bound = r.bindingsOf(j.key());
            if (bound.isEmpty()) continue;
            Set<String> evicted = new HashSet<>();
            for (SessionResult.Eviction e : r.evictions()) if (e.job().equals(j.key())) evicted.add(e.task());
            Map<String, Integer> perRole = new HashMap<>();
            int ready = 0;
            for (TaskInfo t : j.tasks()) {
                boolean holds =
                        (t.status().isAllocated() || t.status() == TaskStatus.Succeeded) && !evicted.contains(t.name());
                boolean isBound = bound.stream().anyMatch(b -> b.task().equals(t.name()));
                boolean leftBestEffort = t.status() == TaskStatus.Pending
                        && t.resreq().isBestEffort()
                        && !isBound
                        && r.nominations().stream()
                                .noneMatch(
                                        n -> n.job().equals(j.key()) && n.task().equals(t.name()));
                if (holds || isBound || leftBestEffort) {
                    ready++;
                    perRole.merge(t.role(), 1, Integer::sum);
                }
            }
            assertThat(ready).as("%s binds %d tasks", j.key(), bound.size()).isGreaterThanOrEqualTo(j.minMember());
            j.minTaskMember()
                    .forEach((role, min) ->
                            assertThat(perRole.getOrDefault(role, 0)).isGreaterThanOrEqualTo(min));
        }
    }

    @Property(tries = 300)
    void theCandidateIndexChoosesWhatAFullScanChooses(@ForAll long seed) {
        assertIndexEqualsScan(randomSnapshot(seed));
    }

    static void assertIndexEqualsScan(Snapshot s) {
        String yaml = SchedulerConf.DEFAULT_YAML.replace(
                "enqueue, allocate, backfill", "enqueue, allocate, backfill, preempt, reclaim");
        SchedulerConf scan =
                SchedulerConf.parse(yaml + "configurations:\n- name: allocate\n  arguments: {candidateIndex: false}\n");
        SessionResult indexed = new Scheduler(ALL_ACTIONS).schedule(s);
        SessionResult scanned = new Scheduler(scan).schedule(s);
        assertThat(indexed.bindings()).containsExactlyElementsOf(scanned.bindings());
        assertThat(indexed.nominations()).containsExactlyElementsOf(scanned.nominations());
        assertThat(indexed.evictions()).containsExactlyElementsOf(scanned.evictions());
        assertThat(indexed.conditions()).isEqualTo(scanned.conditions());
    }

    @Property(tries = 200)
    void theOrderOfTheSnapshotsListsDoesNotMatter(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        List<NodeInfo> nodes = new ArrayList<>(s.nodes());
        List<QueueInfo> queues = new ArrayList<>(s.queues());
        List<JobInfo> jobs = new ArrayList<>(s.jobs());
        java.util.Collections.shuffle(nodes, new Random(seed + 1));
        java.util.Collections.shuffle(queues, new Random(seed + 2));
        java.util.Collections.shuffle(jobs, new Random(seed + 3));
        SessionResult a = new Scheduler(ALL_ACTIONS).schedule(s);
        SessionResult b = new Scheduler(ALL_ACTIONS).schedule(new Snapshot(nodes, queues, jobs));
        assertThat(b.bindings()).containsExactlyElementsOf(a.bindings());
        assertThat(b.nominations()).containsExactlyElementsOf(a.nominations());
        assertThat(b.evictions()).containsExactlyElementsOf(a.evictions());
        assertThat(b.conditions()).isEqualTo(a.conditions());
    }

    @Property(tries = 100)
    void everyPendingPodGroupHasAReason(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        SessionResult r = new Scheduler(ALL_ACTIONS).schedule(s);
        for (JobInfo j : s.jobs()) {
            PodGroupPhase after = r.phaseOf(j.key(), j.phase());
            if (after == PodGroupPhase.Pending || after == PodGroupPhase.Inqueue) {
                SessionResult.PodGroupCondition c = r.conditions().get(j.key());
                assertThat(c).as(j.key()).isNotNull();
                if (c.type().equals(SessionResult.PodGroupCondition.UNSCHEDULABLE)) {
                    assertThat(c.message())
                            .contains("tasks in gang unschedulable: ")
                            .doesNotEndWith(": ");
                }
            }
        }
    }
}
