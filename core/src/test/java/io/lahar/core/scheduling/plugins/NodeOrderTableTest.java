package io.lahar.core.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.NodeSelectorRequirement;
import io.lahar.core.scheduling.api.NodeSelectorTerm;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.PreferredSchedulingTerm;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import io.lahar.core.scheduling.api.WeightedPodAffinityTerm;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * nodeorder's weights after Volcano's {@code TestNodeOrderPlugin}
 * (pkg/scheduler/plugins/nodeorder/nodeorder_test.go): gang and nodeorder in one tier, allocate,
 * every weight given (the ones a row leaves out are 0, as the Go table's zero values).
 */
class NodeOrderTableTest {

    record Case(
            String name,
            Map<String, Integer> weights,
            List<NodeInfo> nodes,
            List<TaskInfo> pods,
            String pod,
            String node) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<String> WEIGHTS = List.of(
            "leastrequested.weight",
            "mostrequested.weight",
            "balancedresource.weight",
            "nodeaffinity.weight",
            "podaffinity.weight",
            "tainttoleration.weight",
            "imagelocality.weight",
            "podtopologyspread.weight");

    static NodeInfo node(String name, String cpu, String mem, String... labels) {
        NodeInfo.Builder b = NodeInfo.builder(name).allocatable(Map.of("cpu", cpu, "memory", mem, "pods", "10"));
        for (int i = 0; i + 1 < labels.length; i += 2) b.label(labels[i], labels[i + 1]);
        return b.build();
    }

    static TaskInfo pod(String name, String mem, PodSpec spec) {
        return TaskInfo.builder(name)
                .role("r")
                .resreq(Map.of("cpu", "1", "memory", mem))
                .spec(spec)
                .build();
    }

    static Stream<Case> testNodeOrderPlugin() {
        PodSpec none = PodSpec.NONE;
        PodSpec zone1 = new PodSpec(
                null,
                List.of(new PreferredSchedulingTerm(
                        100,
                        NodeSelectorTerm.of(new NodeSelectorRequirement(
                                "zone", NodeSelectorRequirement.Operator.In, List.of("zone1"))))),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        PodSpec nearS1 = new PodSpec(
                null,
                null,
                null,
                null,
                List.of(new WeightedPodAffinityTerm(
                        100,
                        new PodAffinityTerm(
                                LabelSelector.of(Map.of("service", "s1")), Set.of(), null, NodeInfo.HOSTNAME))),
                null,
                null,
                null,
                null);
        PodSpec spreadFoo = new PodSpec(
                Map.of("app", "foo"),
                null,
                null,
                null,
                null,
                null,
                List.of(new TopologySpreadConstraint(
                        1,
                        "zone",
                        TopologySpreadConstraint.WhenUnsatisfiable.ScheduleAnyway,
                        LabelSelector.of(Map.of("app", "foo")),
                        1,
                        null,
                        null)),
                null,
                null);
        return Stream.of(
                new Case(
                        "leastAllocated strategy",
                        Map.of("leastrequested.weight", 1),
                        List.of(node("n1", "2", "4Gi"), node("n2", "4", "8Gi")),
                        List.of(pod("p1", "1G", none)),
                        "p1",
                        "n2"),
                new Case(
                        "mostAllocated strategy",
                        Map.of("mostrequested.weight", 1),
                        List.of(node("n1", "2", "4Gi"), node("n2", "4", "8Gi")),
                        List.of(pod("p1", "1G", none)),
                        "p1",
                        "n1"),
                new Case(
                        "balanced allocation prefers balanced node",
                        Map.of("balancedresource.weight", 10),
                        List.of(node("n1", "2", "2Gi"), node("n2", "4", "2Gi")),
                        List.of(pod("p1", "1Gi", none)),
                        "p1",
                        "n1"),
                new Case(
                        "node affinity prefers labeled node",
                        Map.of("nodeaffinity.weight", 10),
                        List.of(node("n1", "2", "4Gi", "zone", "zone1"), node("n2", "2", "4Gi", "zone", "zone2")),
                        List.of(pod("p1", "1G", zone1)),
                        "p1",
                        "n1"),
                new Case(
                        "taint toleration prefers non-tainted node",
                        Map.of("tainttoleration.weight", 10),
                        List.of(
                                node("n1", "2", "4Gi"),
                                NodeInfo.builder("n2")
                                        .allocatable(Map.of("cpu", "2", "memory", "4Gi", "pods", "10"))
                                        .taint("key1", "value1", TaintEffect.PreferNoSchedule)
                                        .build()),
                        List.of(pod("p1", "1G", none)),
                        "p1",
                        "n1"),
                new Case(
                        "inter-pod affinity prefers node with matching pod",
                        Map.of("podaffinity.weight", 10),
                        List.of(node("n1", "2", "4Gi"), node("n2", "2", "4Gi"), node("n3", "2", "4Gi")),
                        List.of(
                                pod("p1", "1G", PodSpec.labels(Map.of("service", "s1")))
                                        .with(TaskStatus.Running, "n1"),
                                pod("p-noise", "1G", PodSpec.labels(Map.of("service", "s2")))
                                        .with(TaskStatus.Running, "n3"),
                                pod("p2", "1G", nearS1)),
                        "p2",
                        "n1"),
                new Case(
                        "pod topology spread prefers node to reduce skew",
                        Map.of("podtopologyspread.weight", 10),
                        List.of(
                                node("n1", "4", "4Gi", "zone", "zone1"),
                                node("n2", "4", "4Gi", "zone", "zone2"),
                                node("n3", "4", "4Gi", "zone", "zone3")),
                        List.of(
                                pod("p1", "1G", PodSpec.labels(Map.of("app", "foo")))
                                        .with(TaskStatus.Running, "n1"),
                                pod("p2", "1G", PodSpec.labels(Map.of("app", "foo")))
                                        .with(TaskStatus.Running, "n1"),
                                pod("p3", "1G", PodSpec.labels(Map.of("app", "foo")))
                                        .with(TaskStatus.Running, "n2"),
                                pod("p4", "1G", spreadFoo)),
                        "p4",
                        "n3"));
    }

    static SessionResult run(Map<String, Integer> weights, List<NodeInfo> nodes, List<TaskInfo> pods) {
        Map<String, Integer> all = new LinkedHashMap<>();
        for (String w : WEIGHTS) all.put(w, weights.getOrDefault(w, 0));
        String args = all.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", "));
        SchedulerConf conf = SchedulerConf.parse("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: gang
                  - name: nodeorder
                    arguments: {%s}
                """.formatted(args));
        JobInfo.Builder pg =
                JobInfo.builder("pg1").namespace("c1").queue("c1").minMember(0).phase(PodGroupPhase.Inqueue);
        pods.forEach(pg::task);
        return new Scheduler(conf).schedule(new Snapshot(nodes, List.of(QueueInfo.of("c1", 1)), List.of(pg.build())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("testNodeOrderPlugin")
    void asVolcanosTable(Case c) {
        assertThat(run(c.weights(), c.nodes(), c.pods()).bindings())
                .singleElement()
                .satisfies(b -> {
                    assertThat(b.task()).isEqualTo(c.pod());
                    assertThat(b.node()).isEqualTo(c.node());
                });
    }

    /**
     * Kubernetes' ImageLocality (TestImageLocalityPriority's shape): a 250 MiB image on one of two
     * nodes, scaled by its spread (1/2) and mapped between 23 MiB and 1000 MiB, tips the balance.
     */
    @Test
    void imageLocalityPrefersTheNodeWithTheImage() {
        NodeInfo with = NodeInfo.builder("n1")
                .allocatable(Map.of("cpu", "4", "memory", "8Gi"))
                .image(250L << 20, "gcr.io/250:latest")
                .build();
        NodeInfo without = NodeInfo.builder("n2")
                .allocatable(Map.of("cpu", "4", "memory", "8Gi"))
                .build();
        PodSpec image = new PodSpec(null, null, null, null, null, null, null, null, List.of("gcr.io/250"));
        SessionResult r =
                run(Map.of("imagelocality.weight", 1), List.of(without, with), List.of(pod("p1", "1G", image)));
        assertThat(r.bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.node()).isEqualTo("n1"));
        // (125 MiB - 23 MiB) * 100 / (1000 MiB - 23 MiB) = 10 on n1, 0 on n2; least-allocated and balanced tie.
        assertThat(ImageLocality.normalized("gcr.io/250")).isEqualTo("gcr.io/250:latest");
        assertThat(ImageLocality.normalized("registry:5000/app")).isEqualTo("registry:5000/app:latest");
        assertThat(ImageLocality.normalized("app:1.2")).isEqualTo("app:1.2");
    }

    /** With the default weights the normalized scores join least-allocated: a preferred zone outweighs a freer node. */
    @Test
    void defaultWeightsAddTheNormalizedScores() {
        PodSpec zone1 = new PodSpec(
                null,
                List.of(new PreferredSchedulingTerm(
                        1,
                        NodeSelectorTerm.of(new NodeSelectorRequirement(
                                "zone", NodeSelectorRequirement.Operator.In, List.of("zone1"))))),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        List<NodeInfo> nodes =
                List.of(node("n1", "4", "8Gi", "zone", "zone1"), node("n2", "64", "256Gi", "zone", "zone2"));
        JobInfo j = JobInfo.builder("j")
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("p", "1Gi", zone1))
                .build();
        SessionResult r = new Scheduler(SchedulerConf.defaults()).schedule(new Snapshot(nodes, List.of(), List.of(j)));
        // least-allocated: n1 (75+87)/2 = 81, n2 (98+99)/2 = 98; balanced 87 vs 99; node affinity 2 x 100 vs 0.
        assertThat(r.bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.node()).isEqualTo("n1"));
    }
}
