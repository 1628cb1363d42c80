package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.plugins.Pods.in;
import static io.lahar.core.scheduling.plugins.Pods.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The predicates plugin in whole sessions, after Volcano's own tables in
 * pkg/scheduler/plugins/predicates/predicates_test.go: {@code TestEventHandler} (a gang's pods count
 * for each other's anti-affinity, and are forgotten when the gang is discarded),
 * {@code TestNodeNum} (the node's pod count) and {@code TestPodAntiAffinity} (preempt does not
 * evict for a pod that anti-affinity keeps off the node anyway).
 */
class PredicatesSessionTest {

    /** One row of Volcano's uthelper.TestCommonStruct: the cluster, the actions and tiers, the bindings and evictions expected. */
    record Case(
            String name,
            String conf,
            List<NodeInfo> nodes,
            List<QueueInfo> queues,
            List<JobInfo> jobs,
            Map<String, String> expectBind,
            List<String> expectEvicted,
            List<String> expectPipelined) {
        @Override
        public String toString() {
            return name;
        }
    }

    static TaskInfo pod(
            String name,
            String cpu,
            String mem,
            Map<String, String> labels,
            Map<String, String> selector,
            boolean antiAffinity,
            int priority) {
        PodSpec spec = new PodSpec(
                labels,
                null,
                null,
                antiAffinity ? List.of(term("kubernetes.io/hostname", in("role", "worker"))) : null,
                null,
                null,
                null,
                null,
                null);
        TaskInfo.Builder b = TaskInfo.builder(name).role("worker").spec(spec).priority(priority);
        if (cpu != null) b.resreq(Map.of("cpu", cpu, "memory", mem));
        selector.forEach(b::nodeSelector);
        return b.build();
    }

    static NodeInfo node(String name, String cpu, String mem, String pods, Map<String, String> labels) {
        NodeInfo.Builder b = NodeInfo.builder(name)
                .allocatable(Map.of("cpu", cpu, "memory", mem, "pods", pods))
                .label("kubernetes.io/hostname", name.replace("n1", "node1"));
        labels.forEach(b::label);
        return b.build();
    }

    static Stream<Case> volcanoTables() {
        Map<String, String> worker = Map.of("role", "worker");
        // TestEventHandler "pod-deallocate"
        JobInfo pg1 = JobInfo.builder("pg1")
                .namespace("ns1")
                .queue("q1")
                .minMember(2)
                .priority(2)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("worker-1", "3", "3k", worker, Map.of("selector", "worker"), true, 2))
                .task(pod("worker-2", "5", "5k", worker, Map.of(), true, 2))
                .build();
        JobInfo pg2 = JobInfo.builder("pg2")
                .namespace("ns1")
                .queue("q1")
                .minMember(1)
                .priority(1)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("worker-3", "4", "4k", worker, Map.of(), true, 1))
                .build();
        Case eventHandler = new Case(
                "TestEventHandler/pod-deallocate",
                """
                actions: "allocate"
                tiers:
                - plugins:
                  - name: predicates
                  - name: gang
                  - name: priority
                """,
                List.of(
                        node("node1", "14", "14k", "10", Map.of("selector", "worker")),
                        node("node2", "3", "3k", "10", Map.of())),
                List.of(QueueInfo.of("q1", 1)),
                List.of(pg1, pg2),
                Map.of("ns1/worker-3", "node1"),
                List.of(),
                List.of());
        // TestNodeNum "pod-predicate"
        JobInfo n1 = JobInfo.builder("pg1")
                .namespace("ns1")
                .queue("q1")
                .minMember(2)
                .priority(2)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("worker-1", null, null, worker, Map.of("selector", "worker"), false, 2))
                .task(pod("worker-2", null, null, worker, Map.of(), false, 2))
                .build();
        JobInfo n2 = JobInfo.builder("pg2")
                .namespace("ns1")
                .queue("q1")
                .minMember(1)
                .priority(1)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("worker-3", null, null, worker, Map.of(), false, 1))
                .build();
        Case nodeNum = new Case(
                "TestNodeNum/pod-predicate",
                """
                actions: "allocate, backfill"
                tiers:
                - plugins:
                  - name: predicates
                """,
                List.of(node("node1", "4", "4k", "2", Map.of("selector", "worker"))),
                List.of(QueueInfo.of("q1", 1)),
                List.of(n1, n2),
                Map.of("ns1/worker-1", "node1", "ns1/worker-2", "node1"),
                List.of(),
                List.of());
        // TestPodAntiAffinity "pod-anti-affinity"
        TaskInfo w1 = pod("worker-1", "3", "3G", worker, Map.of(), true, 100000).with(TaskStatus.Running, "n1");
        TaskInfo w2 = pod("worker-2", "3", "3G", Map.of(), Map.of(), false, 10).with(TaskStatus.Running, "n1");
        JobInfo a1 = JobInfo.builder("pg1")
                .namespace("ns1")
                .queue("q1")
                .minMember(0)
                .priority(10)
                .phase(PodGroupPhase.Running)
                .task(w1)
                .task(w2)
                .build();
        JobInfo a2 = JobInfo.builder("pg2")
                .namespace("ns1")
                .queue("q1")
                .minMember(1)
                .priority(100000)
                .phase(PodGroupPhase.Inqueue)
                .task(pod("worker-3", "3", "3G", worker, Map.of(), true, 100000))
                .build();
        Case antiAffinity = new Case(
                "TestPodAntiAffinity/pod-anti-affinity",
                """
                actions: "allocate, preempt"
                tiers:
                - plugins:
                  - name: predicates
                  - name: priority
                """,
                List.of(node("n1", "12", "12G", "2", Map.of())),
                List.of(QueueInfo.of("q1", 1).withCapability(Map.of("cpu", "9", "memory", "9G"))),
                List.of(a1, a2),
                Map.of(),
                List.of(),
                List.of());
        return Stream.of(eventHandler, nodeNum, antiAffinity);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("volcanoTables")
    void asVolcanosTables(Case c) {
        SessionResult r =
                new Scheduler(SchedulerConf.parse(c.conf())).schedule(new Snapshot(c.nodes(), c.queues(), c.jobs()));
        Map<String, String> bound = new TreeMap<>();
        for (SessionResult.Binding b : r.bindings())
            bound.put(b.job().substring(0, b.job().indexOf('/')) + "/" + b.task(), b.node());
        assertThat(bound).isEqualTo(new TreeMap<>(c.expectBind()));
        assertThat(r.evictions()).extracting(SessionResult.Eviction::task).containsExactlyElementsOf(c.expectEvicted());
        assertThat(r.nominations().stream()
                        .filter(n -> n.action().equals("preempt"))
                        .map(SessionResult.Nomination::task)
                        .collect(Collectors.toList()))
                .containsExactlyElementsOf(c.expectPipelined());
    }

    /** The pending reason counts the nodes each rule turned away, in Kubernetes' words. */
    @Test
    void theReasonCountsNodesPerRule() {
        List<NodeInfo> nodes = List.of(
                node("a", "8", "8Gi", "10", Map.of()),
                node("b", "8", "8Gi", "10", Map.of()),
                node("c", "8", "8Gi", "10", Map.of()));
        JobInfo.Builder b = JobInfo.builder("spread").minMember(4).phase(PodGroupPhase.Inqueue);
        for (int i = 0; i < 4; i++)
            b.task(pod("spread-worker-" + i, "1", "1Gi", Map.of("role", "worker"), Map.of(), true, 0));
        SessionResult r =
                new Scheduler(SchedulerConf.defaults()).schedule(new Snapshot(nodes, List.of(), List.of(b.build())));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get("default/spread").message())
                .contains("only 3 of minMember 4 tasks could be placed")
                .contains("task worker: 0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules");
    }

    /** A gang whose members repel each other lands one per node; gangs bind whole or not at all. */
    @Test
    void aGangsOwnPodsCountForEachOther() {
        List<NodeInfo> nodes = List.of(
                node("a", "8", "8Gi", "10", Map.of()),
                node("b", "8", "8Gi", "10", Map.of()),
                node("c", "8", "8Gi", "10", Map.of()));
        JobInfo.Builder b = JobInfo.builder("g").minMember(3).phase(PodGroupPhase.Inqueue);
        for (int i = 0; i < 3; i++)
            b.task(pod("g-worker-" + i, "1", "1Gi", Map.of("role", "worker"), Map.of(), true, 0));
        SessionResult r =
                new Scheduler(SchedulerConf.defaults()).schedule(new Snapshot(nodes, List.of(), List.of(b.build())));
        assertThat(r.bindings()).extracting(SessionResult.Binding::node).containsExactlyInAnyOrder("a", "b", "c");
    }

    /** A node failing several rules counts under each (Volcano's fit errors), and a failed affinity stops the checks. */
    @Test
    void aNodeCountsUnderEveryRuleItFails() {
        List<NodeInfo> nodes = List.of(node("a", "8", "8Gi", "10", Map.of("zone", "z1")));
        JobInfo running = JobInfo.builder("db")
                .minMember(1)
                .phase(PodGroupPhase.Running)
                .task(TaskInfo.builder("db-0")
                        .resreq(Map.of("cpu", "1"))
                        .spec(new PodSpec(
                                Map.of("app", "db"),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                List.of(new io.lahar.core.scheduling.api.HostPort(null, "TCP", 80)),
                                null))
                        .on("a", TaskStatus.Running)
                        .build())
                .build();
        TaskInfo both = TaskInfo.builder("web-0")
                .role("web")
                .resreq(Map.of("cpu", "1"))
                .spec(new PodSpec(
                        Map.of("app", "web"),
                        null,
                        null,
                        List.of(term("zone", in("app", "db"))),
                        null,
                        null,
                        null,
                        List.of(new io.lahar.core.scheduling.api.HostPort(null, "TCP", 80)),
                        null))
                .build();
        JobInfo web = JobInfo.builder("web")
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .task(both)
                .build();
        SessionResult r =
                new Scheduler(SchedulerConf.defaults()).schedule(new Snapshot(nodes, List.of(), List.of(running, web)));
        assertThat(r.conditions().get("default/web").message())
                .contains(
                        "0/1 nodes are available: "
                                + "1 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match pod anti-affinity rules");
    }
}
