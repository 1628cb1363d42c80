package io.lahar.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.HostPort;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
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
 * Invariants of the inter-pod rules over random clusters: nodes in three zones; gangs whose pods
 * repel each other per node or per zone, repel another job's pods, spread over zones
 * (DoNotSchedule), want a host port, or want to share a zone with another job; some pods already
 * running. Whatever the actions decide, no binding breaks a required anti-affinity (the pod's own
 * or a placed pod's), a DoNotSchedule spread or a host port, no node is over its allocatable,
 * gangs bind whole, and the candidate index answers as a full scan does.
 */
class InterPodPropertiesTest {

    private static final SchedulerConf ALL_ACTIONS =
            Fixtures.defaultTiers("enqueue, allocate, backfill, preempt, reclaim");
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String HOST = "kubernetes.io/hostname";

    enum Kind {
        PLAIN,
        SELF_ANTI_HOST,
        SELF_ANTI_ZONE,
        CROSS_ANTI,
        SPREAD,
        PORT,
        AFFINITY,
        PREFERRED,
        SOFT_SPREAD
    }

    static Snapshot randomSnapshot(long seed) {
        Random rnd = new Random(seed);
        List<NodeInfo> nodes = new ArrayList<>();
        int nodeCount = 2 + rnd.nextInt(7);
        for (int i = 0; i < nodeCount; i++) {
            NodeInfo.Builder b = NodeInfo.builder("n" + i)
                    .allocatable(Map.of(
                            "cpu",
                            (2 + rnd.nextInt(6)) + "",
                            "memory",
                            (2 + rnd.nextInt(8)) + "Gi",
                            "pods",
                            (2 + rnd.nextInt(6)) + ""));
            if (rnd.nextInt(8) != 0) b.label(ZONE, "z" + rnd.nextInt(3));
            if (rnd.nextInt(6) == 0) b.taint("dedicated", "x", TaintEffect.NoSchedule);
            if (rnd.nextInt(6) == 0) b.taint("spot", "x", TaintEffect.PreferNoSchedule);
            nodes.add(b.build());
        }
        List<QueueInfo> queues = List.of(QueueInfo.of("q0", 1), QueueInfo.of("q1", 2));
        Map<String, Resource> free = new HashMap<>();
        Map<String, Integer> freePods = new HashMap<>();
        for (NodeInfo n : nodes) {
            free.put(n.name(), n.allocatable().withPods(0));
            freePods.put(n.name(), (int) n.allocatable().pods());
        }
        List<JobInfo> jobs = new ArrayList<>();
        int jobCount = 1 + rnd.nextInt(7);
        for (int j = 0; j < jobCount; j++) {
            String name = "j" + j;
            Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
            JobInfo.Builder b = JobInfo.builder(name)
                    .queue("q" + rnd.nextInt(2))
                    .priority(rnd.nextInt(3))
                    .creationIndex(j);
            int taskCount = 1 + rnd.nextInt(5);
            // Running pods only for rules an existing placement cannot already break.
            boolean running = (kind == Kind.PLAIN || kind == Kind.PORT) && rnd.nextInt(3) == 0;
            int placed = 0;
            PodSpec spec = spec(kind, name, "j" + rnd.nextInt(jobCount), rnd);
            for (int t = 0; t < taskCount; t++) {
                Resource r = Resource.parse(Map.of("cpu", (250 * (1 + rnd.nextInt(6))) + "m", "memory", "256Mi"));
                // A spread is checked when a pod is placed; evicting one of its pods later may skew it (as
                // in Kubernetes), so the spreading jobs' pods are not preemptable here.
                TaskInfo.Builder tb = TaskInfo.builder(name + "-w-" + t)
                        .role("w")
                        .resreq(r)
                        .spec(spec)
                        .priority(rnd.nextInt(3))
                        .preemptable(kind != Kind.SPREAD && rnd.nextInt(4) != 0);
                if (rnd.nextInt(5) == 0)
                    tb.toleration(io.lahar.core.scheduling.api.Toleration.exists("dedicated", null));
                if (running) {
                    for (NodeInfo n : nodes) {
                        if (r.lessEqual(free.get(n.name()))
                                && freePods.get(n.name()) > 0
                                && n.taints().isEmpty()
                                && (kind != Kind.PORT || placedPort(jobs, b, n.name()))) {
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
            b.phase(
                    running && placed >= minMember
                            ? PodGroupPhase.Running
                            : rnd.nextBoolean() ? PodGroupPhase.Inqueue : PodGroupPhase.Pending);
            jobs.add(b.build());
        }
        return new Snapshot(nodes, queues, jobs);
    }

    /** Whether no running pod of the jobs so far (nor of this one) already uses port 8080 on the node. */
    private static boolean placedPort(List<JobInfo> jobs, JobInfo.Builder current, String node) {
        JobInfo self = current.build();
        List<JobInfo> all = new ArrayList<>(jobs);
        all.add(self);
        for (JobInfo j : all) {
            for (TaskInfo t : j.tasks()) {
                if (node.equals(t.nodeName()) && !t.spec().hostPorts().isEmpty()) return false;
            }
        }
        return true;
    }

    private static PodSpec spec(Kind kind, String app, String other, Random rnd) {
        Map<String, String> labels = Map.of("app", app);
        LabelSelector own = LabelSelector.of(Map.of("app", app));
        LabelSelector theirs = LabelSelector.of(Map.of("app", other));
        return switch (kind) {
            case PLAIN -> PodSpec.labels(labels);
            case SELF_ANTI_HOST ->
                new PodSpec(
                        labels,
                        null,
                        null,
                        List.of(new PodAffinityTerm(own, null, null, HOST)),
                        null,
                        null,
                        null,
                        null,
                        null);
            case SELF_ANTI_ZONE ->
                new PodSpec(
                        labels,
                        null,
                        null,
                        List.of(new PodAffinityTerm(own, null, null, ZONE)),
                        null,
                        null,
                        null,
                        null,
                        null);
            case CROSS_ANTI ->
                new PodSpec(
                        labels,
                        null,
                        null,
                        List.of(new PodAffinityTerm(theirs, null, null, rnd.nextBoolean() ? ZONE : HOST)),
                        null,
                        null,
                        null,
                        null,
                        null);
            case SPREAD ->
                new PodSpec(
                        labels,
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of(new TopologySpreadConstraint(
                                1 + rnd.nextInt(2),
                                ZONE,
                                TopologySpreadConstraint.WhenUnsatisfiable.DoNotSchedule,
                                own,
                                1,
                                null,
                                null)),
                        null,
                        null);
            case PORT ->
                new PodSpec(labels, null, null, null, null, null, null, List.of(new HostPort(null, "TCP", 8080)), null);
            case AFFINITY ->
                new PodSpec(
                        labels,
                        null,
                        List.of(new PodAffinityTerm(theirs, null, null, ZONE)),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null);
            case PREFERRED ->
                new PodSpec(
                        labels,
                        List.of(new io.lahar.core.scheduling.api.PreferredSchedulingTerm(
                                1 + rnd.nextInt(100),
                                io.lahar.core.scheduling.api.NodeSelectorTerm.of(
                                        new io.lahar.core.scheduling.api.NodeSelectorRequirement(
                                                ZONE,
                                                io.lahar.core.scheduling.api.NodeSelectorRequirement.Operator.In,
                                                List.of("z0"))))),
                        null,
                        null,
                        List.of(new io.lahar.core.scheduling.api.WeightedPodAffinityTerm(
                                1 + rnd.nextInt(100), new PodAffinityTerm(theirs, null, null, ZONE))),
                        List.of(new io.lahar.core.scheduling.api.WeightedPodAffinityTerm(
                                1 + rnd.nextInt(100), new PodAffinityTerm(own, null, null, HOST))),
                        null,
                        null,
                        null);
            case SOFT_SPREAD ->
                new PodSpec(
                        labels,
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of(new TopologySpreadConstraint(
                                1 + rnd.nextInt(2),
                                rnd.nextBoolean() ? ZONE : HOST,
                                TopologySpreadConstraint.WhenUnsatisfiable.ScheduleAnyway,
                                own,
                                1,
                                null,
                                null)),
                        null,
                        null);
        };
    }

    /** A pod where it ends the session: its job's namespace, its spec, its node. */
    record Placed(String job, String name, String namespace, PodSpec spec, String node, boolean bound) {}

    /**
     * The pods holding a node once the session's decisions apply: the running ones not evicted, and
     * the bound and nominated (pipelined) ones, which the predicates counted as placed.
     */
    static List<Placed> after(Snapshot s, SessionResult r) {
        Set<String> evicted = new HashSet<>();
        for (SessionResult.Eviction e : r.evictions()) evicted.add(e.job() + "/" + e.task());
        Map<String, String> bound = new HashMap<>();
        for (SessionResult.Binding b : r.bindings()) bound.put(b.job() + "/" + b.task(), b.node());
        for (SessionResult.Nomination n : r.nominations()) bound.put(n.job() + "/" + n.task(), n.node());
        List<Placed> out = new ArrayList<>();
        for (JobInfo j : s.jobs()) {
            for (TaskInfo t : j.tasks()) {
                String k = j.key() + "/" + t.name();
                if (bound.containsKey(k)) {
                    out.add(new Placed(j.key(), t.name(), j.namespace(), t.spec(), bound.get(k), true));
                } else if (t.nodeName() != null
                        && t.status().occupiesNode()
                        && t.status() != TaskStatus.Releasing
                        && !evicted.contains(k)) {
                    out.add(new Placed(j.key(), t.name(), j.namespace(), t.spec(), t.nodeName(), false));
                }
            }
        }
        return out;
    }

    @Property(tries = 400)
    void noBindingBreaksARequiredAntiAffinity(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        SessionResult r = new Scheduler(ALL_ACTIONS).schedule(s);
        Map<String, NodeInfo> nodes = nodes(s);
        List<Placed> pods = after(s, r);
        for (Placed a : pods) {
            for (PodAffinityTerm raw : a.spec().requiredAntiAffinity()) {
                PodAffinityTerm t = raw.resolvedFor(a.namespace());
                String domain = nodes.get(a.node()).labels().get(t.topologyKey());
                if (domain == null) continue;
                for (Placed b : pods) {
                    if (b == a || (!a.bound() && !b.bound())) continue;
                    boolean sameDomain =
                            domain.equals(nodes.get(b.node()).labels().get(t.topologyKey()));
                    boolean matches = t.matches(
                            b.namespace(),
                            s.namespaceLabels(b.namespace()),
                            b.spec().labels());
                    assertThat(sameDomain && matches)
                            .as("%s (on %s) repels %s (on %s) by %s", a.name(), a.node(), b.name(), b.node(), t)
                            .isFalse();
                }
            }
        }
    }

    @Property(tries = 400)
    void noBindingBreaksADoNotScheduleSpread(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        SessionResult r = new Scheduler(ALL_ACTIONS).schedule(s);
        Map<String, NodeInfo> nodes = nodes(s);
        List<Placed> pods = after(s, r);
        for (JobInfo j : s.jobs()) {
            for (TopologySpreadConstraint c : j.tasks().get(0).spec().topologySpread()) {
                if (!c.hard()) continue;
                // Each such job's pods are the only ones its selector matches, none ran before: its
                // placements in commit order keep count - min <= maxSkew over the zones, so the end does too.
                Map<String, Integer> count = new HashMap<>();
                for (NodeInfo n : s.nodes()) {
                    String d = n.labels().get(c.topologyKey());
                    if (d != null) count.putIfAbsent(d, 0);
                }
                for (Placed p : pods) {
                    if (!p.job().equals(j.key())) continue;
                    String d = nodes.get(p.node()).labels().get(c.topologyKey());
                    assertThat(d)
                            .as("%s placed on a node without %s", p.name(), c.topologyKey())
                            .isNotNull();
                    count.merge(d, 1, Integer::sum);
                }
                int min = count.values().stream().min(Integer::compare).orElse(0);
                int max = count.values().stream().max(Integer::compare).orElse(0);
                assertThat(max - min)
                        .as("%s spread over %s: %s", j.key(), c.topologyKey(), count)
                        .isLessThanOrEqualTo(c.maxSkew());
            }
        }
    }

    @Property(tries = 300)
    void noBindingTakesAHostPortInUse(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        List<Placed> pods = after(s, new Scheduler(ALL_ACTIONS).schedule(s));
        for (Placed a : pods) {
            for (Placed b : pods) {
                if (a == b || !a.node().equals(b.node()) || (!a.bound() && !b.bound())) continue;
                for (HostPort p : a.spec().hostPorts()) {
                    for (HostPort q : b.spec().hostPorts())
                        assertThat(p.conflicts(q))
                                .as("%s and %s on %s", a.name(), b.name(), a.node())
                                .isFalse();
                }
            }
        }
    }

    /** Without evictions (a pod's affinity is only checked when it is placed), every bound pod shares its zone with a match. */
    @Property(tries = 300)
    void everyBoundPodFindsItsRequiredAffinity(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        SessionResult r = new Scheduler(SchedulerConf.defaults()).schedule(s);
        Map<String, NodeInfo> nodes = nodes(s);
        List<Placed> pods = after(s, r);
        for (Placed a : pods) {
            if (!a.bound() || a.spec().requiredAffinity().isEmpty()) continue;
            PodAffinityTerm t = a.spec().requiredAffinity().get(0).resolvedFor(a.namespace());
            String domain = nodes.get(a.node()).labels().get(t.topologyKey());
            assertThat(domain).isNotNull();
            boolean anyMatch = false;
            boolean inDomain = false;
            for (Placed b : pods) {
                if (!t.matches(
                        b.namespace(),
                        s.namespaceLabels(b.namespace()),
                        b.spec().labels())) continue;
                anyMatch |= b != a;
                inDomain |= b != a && domain.equals(nodes.get(b.node()).labels().get(t.topologyKey()));
            }
            boolean self = t.matches(
                    a.namespace(), s.namespaceLabels(a.namespace()), a.spec().labels());
            assertThat(inDomain || (self && !anyMatchOutside(pods, a, t, nodes, domain)))
                    .as("%s on %s", a.name(), a.node())
                    .isTrue();
        }
    }

    /** The first of a series may go anywhere only while no pod matching its terms holds a node elsewhere. */
    private static boolean anyMatchOutside(
            List<Placed> pods, Placed a, PodAffinityTerm t, Map<String, NodeInfo> nodes, String domain) {
        for (Placed b : pods) {
            if (b == a || b.bound()) continue;
            if (t.matches(
                            b.namespace(),
                            Map.of("kubernetes.io/metadata.name", b.namespace()),
                            b.spec().labels())
                    && !domain.equals(nodes.get(b.node()).labels().get(t.topologyKey()))) return true;
        }
        return false;
    }

    @Property(tries = 300)
    void noNodeIsOverCommittedAndGangsBindWhole(@ForAll long seed) {
        Snapshot s = randomSnapshot(seed);
        SessionResult r = new Scheduler(ALL_ACTIONS).schedule(s);
        SchedulingPropertiesTest.assertNoNodeOverCommitted(s, r);
        SchedulingPropertiesTest.assertGangsWhole(s, r);
    }

    @Property(tries = 300)
    void theCandidateIndexChoosesWhatAFullScanChooses(@ForAll long seed) {
        SchedulingPropertiesTest.assertIndexEqualsScan(randomSnapshot(seed));
    }

    private static Map<String, NodeInfo> nodes(Snapshot s) {
        Map<String, NodeInfo> out = new HashMap<>();
        for (NodeInfo n : s.nodes()) out.put(n.name(), n);
        return out;
    }
}
