package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.VolcanoTables.bound;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.VolcanoTables;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Extension;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capacity plugin after Volcano's pkg/scheduler/plugins/capacity/capacity_test.go:
 * {@code Test_capacityPlugin_OnSessionOpenWithoutHierarchy} (cases 0-10),
 * {@code TestEnqueueAndAllocatable} (its cases 0, 1, 2 and 4),
 * {@code Test_capacityPlugin_OnSessionOpenWithHierarchy} (cases 0-12) and
 * {@code Test_capacityPlugin_AncestorReclaimScenarios} case1; row names are Volcano's.
 */
class CapacityTest {

    // ---- Volcano's util builders -------------------------------------------------------------

    /** api.BuildResourceList(cpu, memory, scalars...): an empty cpu or memory is left out. */
    static Map<String, String> res(String cpu, String mem, String... scalars) {
        Map<String, String> m = new LinkedHashMap<>();
        if (!cpu.isEmpty()) m.put("cpu", cpu);
        if (!mem.isEmpty()) m.put("memory", mem);
        for (int i = 0; i + 1 < scalars.length; i += 2) m.put(scalars[i], scalars[i + 1]);
        return m;
    }

    static NodeInfo node(String name, Map<String, String> allocatable, String... labels) {
        Map<String, String> a = new LinkedHashMap<>(allocatable);
        a.putIfAbsent("pods", "10");
        NodeInfo.Builder b = NodeInfo.builder(name).allocatable(a);
        for (int i = 0; i + 1 < labels.length; i += 2) b.label(labels[i], labels[i + 1]);
        return b.build();
    }

    /** util.BuildPod: running on a node, or pending when node is null. */
    static TaskInfo pod(String name, String node, Map<String, String> req) {
        TaskInfo.Builder b = TaskInfo.builder(name).resreq(req);
        if (node != null) b.on(node, TaskStatus.Running);
        return b.build();
    }

    static TaskInfo nonPreemptable(String name, String node, Map<String, String> req) {
        return TaskInfo.builder(name)
                .resreq(req)
                .on(node, TaskStatus.Running)
                .preemptable(false)
                .build();
    }

    /** util.BuildPodGroup in ns1 with its pods. */
    static JobInfo pg(String name, String queue, int minMember, PodGroupPhase phase, TaskInfo... pods) {
        JobInfo.Builder b = JobInfo.builder(name)
                .namespace("ns1")
                .queue(queue)
                .minMember(minMember)
                .phase(phase);
        for (TaskInfo t : pods) b.task(t);
        return b.build();
    }

    /** util.BuildPodGroupWithMinResources, without pods. */
    static JobInfo pgMin(String name, String queue, Map<String, String> minResources, PodGroupPhase phase) {
        return JobInfo.builder(name)
                .namespace("ns1")
                .queue(queue)
                .minMember(1)
                .phase(phase)
                .minResources(Resource.parse(minResources))
                .build();
    }

    /** util.BuildQueueWithResourcesQuantity(name, deserved, capability); null leaves it unset. */
    static QueueInfo queue(String name, Map<String, String> deserved, Map<String, String> capability) {
        return queue(name, QueueInfo.ROOT, deserved, capability);
    }

    /** buildQueueWithParents(name, parent, deserved, capability). */
    static QueueInfo queue(String name, String parent, Map<String, String> deserved, Map<String, String> capability) {
        QueueInfo q = QueueInfo.of(name, 1).withParent(parent);
        if (deserved != null) q = q.withDeserved(deserved);
        if (capability != null) q = q.withCapability(capability);
        return q;
    }

    static QueueInfo root(Map<String, String> deserved, Map<String, String> capability) {
        return queue(QueueInfo.ROOT, null, deserved, capability);
    }

    // ---- the tables --------------------------------------------------------------------------

    record Case(
            String name,
            List<NodeInfo> nodes,
            List<QueueInfo> queues,
            List<JobInfo> jobs,
            Map<String, String> expectBind,
            Map<String, String> expectPipelined,
            Set<String> expectEvicted,
            Map<String, PodGroupPhase> expectStatus) {
        Case(
                String name,
                List<NodeInfo> nodes,
                List<QueueInfo> queues,
                List<JobInfo> jobs,
                Map<String, String> expectBind) {
            this(name, nodes, queues, jobs, expectBind, Map.of(), Set.of(), Map.of());
        }

        Case(
                String name,
                List<NodeInfo> nodes,
                List<QueueInfo> queues,
                List<JobInfo> jobs,
                Map<String, String> pipelined,
                Set<String> evicted) {
            this(name, nodes, queues, jobs, Map.of(), pipelined, evicted, Map.of());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final Set<Extension> RECLAIMING =
            Set.of(Extension.ALLOCATABLE, Extension.PREEMPTIVE, Extension.RECLAIMABLE, Extension.QUEUE_ORDER);

    static Map<String, Set<Extension>> tier(Set<Extension> capacity) {
        Map<String, Set<Extension>> tier = new LinkedHashMap<>();
        tier.put(Capacity.NAME, capacity);
        tier.put("predicates", Set.of(Extension.PREDICATE));
        tier.put("gang", Set.of(Extension.JOB_STARVING));
        return tier;
    }

    static final SchedulerConf WITHOUT_HIERARCHY = VolcanoTables.conf("allocate, reclaim", tier(RECLAIMING), "");

    static Stream<Case> withoutHierarchy() {
        NodeInfo n1 = node("n1", res("2", "4Gi"), "selector", "worker");
        NodeInfo n2 = node("n2", res("2", "4Gi"));
        NodeInfo n3 = node("n3", res("2", "4Gi", "nvidia.com/A100", "10"), "selector", "worker");
        NodeInfo n4 = node("n4", res("2", "4Gi", "nvidia.com/A100", "10"));
        NodeInfo n5 = node("n5", res("2", "4Gi"));
        NodeInfo n6 = node("n6", res("2", "4Gi"));
        NodeInfo n7 = node("n7", res("4", "8Gi", "nvidia.com/gpu", "4"));
        NodeInfo n8 = node("n8", res("4", "8Gi", "nvidia.com/gpu", "1"));
        NodeInfo n9 = node("n9", res("8", "100Gi"));
        NodeInfo n10 = node("n10", res("8", "100Gi"));
        Map<String, String> a100 = res("0", "0Gi", "nvidia.com/A100", "10");
        TaskInfo p31 = pod("p31", "n8", res("4", "4Gi", "nvidia.com/gpu", "1"));
        return Stream.of(
                new Case(
                        "case0: Pod allocatable when queue has not exceed capability",
                        List.of(n1, n2),
                        List.of(queue("q1", null, res("2", "2Gi"))),
                        List.of(
                                pg("pg1", "q1", 1, PodGroupPhase.Running, pod("p1", "n1", res("1", "1Gi"))),
                                pg(
                                        "pg2",
                                        "q1",
                                        1,
                                        PodGroupPhase.Inqueue,
                                        TaskInfo.builder("p2")
                                                .resreq(res("1", "1Gi"))
                                                .nodeSelector("selector", "worker")
                                                .build())),
                        Map.of("ns1/p2", "n1")),
                new Case(
                        "case1: Pod not allocatable when queue exceed queue capability",
                        List.of(n1, n2),
                        List.of(queue("q2", null, res("1.5", "1.5Gi"))),
                        List.of(
                                pg("pg3", "q2", 1, PodGroupPhase.Running, pod("p3", "n1", res("1", "1Gi"))),
                                pg("pg4", "q2", 1, PodGroupPhase.Inqueue, pod("p4", null, res("1", "1Gi")))),
                        Map.of()),
                new Case(
                        "case2: Can reclaim from other queues when allocated < deserved",
                        List.of(n1, n2),
                        List.of(queue("q3", res("2", "4Gi"), null), queue("q4", res("2", "4Gi"), null)),
                        List.of(
                                pg(
                                        "pg5",
                                        "q3",
                                        1,
                                        PodGroupPhase.Running,
                                        nonPreemptable("p5", "n1", res("2", "4Gi")),
                                        pod("p6", "n2", res("2", "4Gi"))),
                                pg("pg6", "q4", 1, PodGroupPhase.Inqueue, pod("p7", null, res("2", "4Gi")))),
                        Map.of("ns1/pg6", "n2"),
                        Set.of("ns1/p6")),
                new Case(
                        "case3: CPU & Memory are overused, scalar resource is not overused, but candidate pod has not request CPU & Memory,"
                                + " reclaim should happen",
                        List.of(n3, n4),
                        List.of(
                                queue("q5", res("2", "4Gi", "nvidia.com/A100", "10"), null),
                                queue("q6", res("2", "4Gi", "nvidia.com/A100", "10"), null)),
                        List.of(
                                pg(
                                        "pg7",
                                        "q5",
                                        1,
                                        PodGroupPhase.Running,
                                        nonPreemptable("p8", "n3", a100),
                                        pod("p9", "n4", a100)),
                                pg(
                                        "pg8",
                                        "q6",
                                        1,
                                        PodGroupPhase.Running,
                                        pod("p10", "n3", res("2", "4Gi")),
                                        pod("p11", "n4", res("2", "4Gi"))),
                                pg("pg9", "q6", 1, PodGroupPhase.Inqueue, pod("p12", null, a100))),
                        Map.of("ns1/pg9", "n4"),
                        Set.of("ns1/p9")),
                new Case(
                        "case4: Pods are assigned according to the order of Queue Priority in which PGs are placed",
                        List.of(n5, n6),
                        List.of(
                                queue("q7", null, res("2", "4Gi")).withPriority(5),
                                queue("q8", null, res("2", "4Gi")).withPriority(1),
                                queue("q9", null, res("2", "4Gi")).withPriority(10)),
                        List.of(
                                pg("pg10", "q7", 1, PodGroupPhase.Running, pod("p13", "n5", res("2", "4Gi"))),
                                pg("pg11", "q8", 1, PodGroupPhase.Inqueue, pod("p14", null, res("2", "4Gi"))),
                                pg("pg12", "q9", 1, PodGroupPhase.Inqueue, pod("p15", null, res("2", "4Gi")))),
                        Map.of("ns1/p15", "n6")),
                new Case(
                        "case5: Can reclaim from other queues when allocated + req <= deserved on one dimension",
                        List.of(n1),
                        List.of(
                                queue("q10", res("2", "2Gi"), res("4", "4Gi")),
                                queue("q11", res("0", "0Gi"), res("2", "2Gi"))),
                        List.of(
                                pg("pg16", "q10", 1, PodGroupPhase.Running, pod("p16", "n1", res("1", "3Gi"))),
                                pg("pg17", "q10", 1, PodGroupPhase.Inqueue, pod("p17", null, res("1", "1Gi"))),
                                pg("pg18", "q11", 1, PodGroupPhase.Running, pod("p18", "n1", res("1", "1Gi")))),
                        Map.of("ns1/pg17", "n1"),
                        Set.of("ns1/p18")),
                new Case(
                        "case6: Can not reclaim from other queues when allocated + req > deserved",
                        List.of(n1),
                        List.of(
                                queue("q12", res("1", "2Gi"), res("4", "4Gi")),
                                queue("q13", res("0", "0Gi"), res("2", "2Gi"))),
                        List.of(
                                pg("pg19", "q12", 1, PodGroupPhase.Running, pod("p19", "n1", res("1", "1Gi"))),
                                pg("pg20", "q12", 1, PodGroupPhase.Inqueue, pod("p20", null, res("1", "2Gi"))),
                                pg("pg21", "q13", 1, PodGroupPhase.Running, pod("p21", "n1", res("1", "1Gi")))),
                        Map.of(),
                        Set.of()),
                new Case(
                        "case7: allocated does not contain scalar dimension (GPU), deserved does; should not reclaim",
                        List.of(n7),
                        List.of(
                                queue("queue14", res("2", "4Gi", "nvidia.com/gpu", "2"), null),
                                queue("queue15", null, null),
                                queue("queue16", res("2", "4Gi", "nvidia.com/gpu", "2"), null)),
                        List.of(
                                pg("pg22", "queue14", 1, PodGroupPhase.Running, pod("p22", "n7", res("2", "4Gi"))),
                                pg(
                                        "pg23",
                                        "queue15",
                                        1,
                                        PodGroupPhase.Running,
                                        pod("p23", "n7", res("0", "0Gi", "nvidia.com/gpu", "1"))),
                                pg(
                                        "pg24",
                                        "queue16",
                                        1,
                                        PodGroupPhase.Running,
                                        pod("p24", "n7", res("2", "1Gi", "nvidia.com/gpu", "1"))),
                                pg(
                                        "pg25",
                                        "queue16",
                                        1,
                                        PodGroupPhase.Inqueue,
                                        pod("p25", null, res("2", "3Gi", "nvidia.com/gpu", "1")))),
                        Map.of(),
                        Set.of()),
                new Case(
                        "case8: reclaimer dimensions are considered properly while evicting reclaimees",
                        List.of(n8),
                        List.of(
                                queue("queue17", res("2", "2Gi"), null),
                                queue("queue18", res("2", "4Gi", "nvidia.com/gpu", "1"), null)),
                        List.of(
                                pg("pg26", "queue17", 1, PodGroupPhase.Running, pod("p26", "n8", res("0", "4Gi"))),
                                pg("pg27", "queue17", 1, PodGroupPhase.Running, pod("p27", "n8", res("1", "0Gi"))),
                                pg(
                                        "pg28",
                                        "queue17",
                                        1,
                                        PodGroupPhase.Running,
                                        pod("p28", "n8", res("0", "0Gi", "nvidia.com/gpu", "1"))),
                                pg("pg29", "queue18", 1, PodGroupPhase.Running, pod("p29", "n8", res("2", "4Gi"))),
                                pg(
                                        "pg30",
                                        "queue18",
                                        1,
                                        PodGroupPhase.Inqueue,
                                        pod("p30", null, res("1", "0Gi", "nvidia.com/gpu", "1")))),
                        Map.of("ns1/pg30", "n8"),
                        Set.of("ns1/p28")),
                new Case(
                        "case9: reclaimee has intersecting scalar dimensions with deserved shouldn't be reclaimed on cpu/memory",
                        List.of(n8),
                        List.of(
                                queue("queue19", res("", "", "nvidia.com/gpu", "1"), null),
                                queue("queue20", res("2", "2Gi"), null)),
                        List.of(
                                pg("pg31", "queue19", 1, PodGroupPhase.Running, p31),
                                pg("pg32", "queue20", 1, PodGroupPhase.Inqueue, pod("p32", null, res("1", "1Gi")))),
                        Map.of(),
                        Set.of()),
                new Case(
                        "case10: PreemptiveFn respects capability — no reclaim when futureUsed would exceed capability",
                        List.of(n9, n10),
                        List.of(
                                queue("queue21", res("8", "100Gi"), res("8", "100Gi")),
                                queue("queue22", null, res("2", "5Gi"))),
                        List.of(
                                pg("pg33", "queue21", 1, PodGroupPhase.Running, pod("p33", "n9", res("7", "90Gi"))),
                                pg("pg34", "queue21", 1, PodGroupPhase.Inqueue, pod("p34", null, res("2", "5Gi"))),
                                pg("pg35", "queue22", 1, PodGroupPhase.Running, pod("p35", "n10", res("2", "5Gi")))),
                        Map.of(),
                        Set.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutHierarchy")
    void asVolcanosOnSessionOpenWithoutHierarchy(Case c) {
        check(WITHOUT_HIERARCHY, c);
    }

    static Stream<Case> enqueueAndAllocatable() {
        List<NodeInfo> nodes = List.of(node("n1", res("3", "3G")), node("n2", res("3", "3G")));
        List<QueueInfo> queues =
                List.of(queue("q1", res("2", "2G"), res("2", "2G")), queue("q2", res("2", "2G"), res("3", "3G")));
        JobInfo pg1 = withMin(pg("pg1", "q1", 1, PodGroupPhase.Running, pod("pod1", "n1", res("1", "3G"))));
        JobInfo pg2 = withMin(pg("pg2", "q2", 1, PodGroupPhase.Running, pod("pod2", "n2", res("3", "1G"))));
        return Stream.of(
                new Case(
                        "case0: memory exceed derserved, job only request cpu can be enqueued and allocated",
                        nodes,
                        queues,
                        List.of(
                                pg1,
                                pg2,
                                withMin(pg("pg3", "q1", 1, PodGroupPhase.Pending, pod("pod3", null, res("1", "0G"))))),
                        Map.of("ns1/pod3", "n1")),
                new Case(
                        "case1: cpu exceed derserved, job only request memory can be enqueued and allocated",
                        nodes,
                        queues,
                        List.of(
                                pg1,
                                pg2,
                                withMin(pg("pg4", "q2", 1, PodGroupPhase.Pending, pod("pod4", null, res("0", "1G"))))),
                        Map.of("ns1/pod4", "n2")),
                new Case(
                        "case2: exceed capacity, can not enqueue",
                        nodes,
                        queues,
                        List.of(
                                pg1,
                                pg2,
                                withMin(pg("pg5", "q1", 1, PodGroupPhase.Pending, pod("pod5", null, res("1", "1G"))))),
                        Map.of()),
                new Case(
                        "case4: queue with non-open state, can not enqueue",
                        nodes,
                        List.of(QueueInfo.of("q3", 1)
                                .withCapability(res("3", "3G"))
                                .withState(QueueState.Closed)),
                        List.of(withMin(pg("pg6", "q3", 1, PodGroupPhase.Pending, pod("pod6", null, res("1", "1G"))))),
                        Map.of()));
    }

    /** pg.Spec.MinResources set to its one pod's request, as the table does. */
    static JobInfo withMin(JobInfo j) {
        return new JobInfo(
                j.namespace(),
                j.name(),
                j.queue(),
                j.minMember(),
                j.minTaskMember(),
                j.tasks().get(0).resreq(),
                j.priority(),
                j.creationIndex(),
                j.phase(),
                j.tasks(),
                j.creationTime(),
                j.slaWaitingTime(),
                j.subGroupPolicy(),
                j.preemptable(),
                j.budget());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("enqueueAndAllocatable")
    void asVolcanosEnqueueAndAllocatable(Case c) {
        check(
                VolcanoTables.conf(
                        "enqueue, allocate",
                        Map.of(
                                Capacity.NAME,
                                Set.of(
                                        Extension.ALLOCATABLE,
                                        Extension.PREEMPTIVE,
                                        Extension.OVERUSED,
                                        Extension.JOB_ENQUEUED)),
                        ""),
                c);
    }

    static final Set<Extension> HIERARCHICAL = Set.of(
            Extension.ALLOCATABLE,
            Extension.PREEMPTIVE,
            Extension.RECLAIMABLE,
            Extension.QUEUE_ORDER,
            Extension.HIERARCHY,
            Extension.JOB_ENQUEUED);

    static Stream<Case> withHierarchy() {
        NodeInfo n1 = node("n1", res("8", "8Gi", "pods", "11"));
        NodeInfo n2 = node("n2", res("8", "8Gi", "nvidia.com/gpu", "8", "hugepages-1Gi", "0"));
        NodeInfo n3 = node("n3", res("16", "16Gi", "nvidia.com/a100", "5", "rdma/hca", "1001", "pods", "11"));
        NodeInfo gpuNode = node("n-gpu", res("8", "8Gi", "nvidia.com/gpu", "8"));
        QueueInfo root = root(null, null);
        QueueInfo root1 = root(null, res("16", "16Gi"));
        QueueInfo root2 = root(res("16", "16Gi", "nvidia.com/a100", "4", "rdma", "1000"), null);
        List<QueueInfo> tree1 = List.of(
                root,
                queue("q1", "root", null, res("4", "4Gi")),
                queue("q2", "root", null, res("4", "4Gi")),
                queue("q11", "q1", null, res("1", "1Gi")),
                queue("q12", "q1", null, res("3", "3Gi")));
        QueueInfo q3 = queue("q3", "root", res("4", "4Gi", "pods", "10"), res("4", "4Gi", "pods", "10"));
        QueueInfo q4 = queue("q4", "root", res("2", "2Gi", "pods", "1"), res("4", "4Gi", "pods", "4"));
        QueueInfo q31 = queue("q31", "q3", res("2", "2Gi", "pods", "2"), res("4", "4Gi", "pods", "4"));
        QueueInfo q32 = queue("q32", "q3", res("2", "2Gi", "pods", "2"), res("4", "4Gi", "pods", "4"));
        QueueInfo q33 = queue("q33", "q3", res("0", "0Gi", "pods", "2"), res("4", "4Gi", "pods", "4"));
        TaskInfo p6 = nonPreemptable("p6", "n1", res("2", "2Gi"));
        JobInfo pg5 = pg("pg5", "q31", 1, PodGroupPhase.Running, p6, pod("p7", "n1", res("2", "2Gi")));
        Map<String, String> a100 = res("1", "1Gi", "nvidia.com/a100", "2", "rdma/hca", "1");
        return Stream.of(
                new Case(
                        "case0: Pod allocatable when queue is leaf queue",
                        List.of(n1),
                        tree1,
                        List.of(pg("pg1", "q11", 1, PodGroupPhase.Inqueue, pod("p1", null, res("1", "1Gi")))),
                        Map.of("ns1/p1", "n1")),
                new Case(
                        "case1: Pod not allocatable when queue is not leaf queue",
                        List.of(n1),
                        tree1,
                        List.of(pg("pg2", "q1", 1, PodGroupPhase.Pending, pod("p2", null, res("1", "1Gi")))),
                        Map.of()),
                new Case(
                        "case2: Pod allocatable when queue has not exceed capability",
                        List.of(n1),
                        List.of(root, q3, q4, q31, q32),
                        List.of(pg(
                                "pg3",
                                "q31",
                                2,
                                PodGroupPhase.Inqueue,
                                pod("p3", null, res("2", "2Gi")),
                                pod("p4", null, res("2", "2Gi")))),
                        Map.of("ns1/p3", "n1", "ns1/p4", "n1")),
                new Case(
                        "case3: Can reclaim from other queues when allocated < deserved",
                        List.of(n1),
                        List.of(root, q3, q31, q32, q4),
                        List.of(
                                pg("pg4", "q4", 1, PodGroupPhase.Running, pod("p5", "n1", res("4", "4Gi"))),
                                pg5,
                                pg("pg6", "q32", 1, PodGroupPhase.Inqueue, pod("p8", null, res("2", "2Gi")))),
                        Map.of("ns1/pg6", "n1"),
                        Set.of("ns1/p7")),
                new Case(
                        "case4: Pod is not allocatable when ancestor queue's real capability not enough",
                        List.of(n1),
                        List.of(root, q3, q31, q32, q33),
                        List.of(
                                pg("pg5", "q31", 1, PodGroupPhase.Running, p6),
                                pg("pg7", "q32", 1, PodGroupPhase.Running, pod("p9", "n1", res("2", "2Gi"))),
                                pg("pg8", "q33", 1, PodGroupPhase.Inqueue, pod("p10", null, res("3", "3Gi")))),
                        Map.of()),
                new Case(
                        "case5: If the capability cpu or memory is not specified, the value should be inherited from parent queue",
                        List.of(n1),
                        List.of(
                                root,
                                queue("q5", "root", null, res("", "4Gi")),
                                queue("q51", "q5", null, res("", "2Gi"))),
                        List.of(pg("pg9", "q51", 1, PodGroupPhase.Running, pod("p11", null, res("1", "")))),
                        Map.of("ns1/p11", "n1")),
                new Case(
                        "case6: podgroup can't be enqueued when any ancestor queue's capability is not enough",
                        List.of(n1),
                        List.of(
                                root,
                                queue("q6", "root", null, res("2", "4Gi")),
                                queue("q61", "q6", null, null),
                                queue("q62", "q6", null, null)),
                        List.of(
                                pgMin("pg10", "q61", res("2", "4Gi"), PodGroupPhase.Pending),
                                pgMin("pg11", "q62", res("2", "4Gi"), PodGroupPhase.Pending)),
                        Map.of(),
                        Map.of(),
                        Set.of(),
                        Map.of("ns1/pg10", PodGroupPhase.Inqueue, "ns1/pg11", PodGroupPhase.Pending)),
                new Case(
                        "case7: the sum of sub queue 71 and 72's guarantee exceeds the capacity of queue7, but should not panic",
                        List.of(n1),
                        List.of(
                                root,
                                queue("q7", "root", null, res("6", "4Gi")),
                                queue("q71", "q7", null, res("6", "4Gi")).withGuarantee(res("4", "3Gi")),
                                queue("q72", "q7", null, res("6", "4Gi")).withGuarantee(res("4", "3Gi"))),
                        List.of(),
                        Map.of()),
                new Case(
                        "case8: When the queue's deserved value has a scalar resource set, the check can pass",
                        List.of(gpuNode),
                        List.of(
                                root,
                                queue("q8", "root", res("4", "4Gi", "nvidia.com/gpu", "8"), null),
                                queue("q81", "q8", res("2", "2Gi", "nvidia.com/gpu", "4"), null),
                                queue("q82", "q8", res("2", "2Gi", "nvidia.com/gpu", "4"), null)),
                        List.of(pg(
                                "pg12",
                                "q81",
                                1,
                                PodGroupPhase.Inqueue,
                                pod("p12", null, res("2", "2Gi", "nvidia.com/gpu", "1")))),
                        Map.of("ns1/p12", "n-gpu")),
                new Case(
                        "case9: When some scalar resources are 0 in deserved, the check can still pass",
                        List.of(n2),
                        List.of(
                                root,
                                queue("q9", "root", res("2", "2Gi", "nvidia.com/gpu", "8", "hugepages-1Gi", "0"), null),
                                queue("q91", "q9", res("2", "2Gi", "nvidia.com/gpu", "4", "hugepages-1Gi", "0"), null)),
                        List.of(pg(
                                "pg13",
                                "q91",
                                1,
                                PodGroupPhase.Inqueue,
                                pod("p13", null, res("2", "2Gi", "nvidia.com/gpu", "1")))),
                        Map.of("ns1/p13", "n2")),
                new Case(
                        "case10: root queue's capability > cluster total resource, but should not panic",
                        List.of(n1),
                        List.of(root1, queue("q10", "root", null, res("10", "4Gi"))),
                        List.of(),
                        Map.of()),
                new Case(
                        "case11: If the capability scalar resources is not specified, the value should be inherited from parent queue",
                        List.of(n2),
                        List.of(
                                root,
                                queue("case11_queue1", "root", null, null),
                                queue("case11_queue11", "case11_queue1", null, res("4", "4Gi", "nvidia.com/gpu", "4")),
                                queue("case11_queue12", "case11_queue1", null, res("4", "4Gi", "nvidia.com/gpu", "4"))),
                        List.of(
                                pg(
                                        "pg14",
                                        "case11_queue11",
                                        1,
                                        PodGroupPhase.Inqueue,
                                        pod("p14", null, res("1", "1Gi", "nvidia.com/gpu", "4"))),
                                pg(
                                        "pg15",
                                        "case11_queue12",
                                        1,
                                        PodGroupPhase.Inqueue,
                                        pod("p15", null, res("1", "1Gi", "nvidia.com/gpu", "4")))),
                        Map.of("ns1/p14", "n2", "ns1/p15", "n2")),
                new Case(
                        "case12: Can reclaim from other queues when allocated <= deserved on a single scalar dimension",
                        List.of(n3),
                        List.of(
                                root2,
                                queue("case12_queue1", "root", res("", "", "nvidia.com/a100", "2"), null),
                                queue("case12_queue11", "case12_queue1", res("", "", "nvidia.com/a100", "2"), null),
                                queue("case12_queue12", "case12_queue1", null, null)),
                        List.of(
                                pg("pg16", "case12_queue11", 1, PodGroupPhase.Inqueue, pod("p16", null, a100)),
                                pg("pg17", "case12_queue12", 1, PodGroupPhase.Running, pod("p17", "n3", a100)),
                                pg(
                                        "pg18",
                                        "case12_queue12",
                                        1,
                                        PodGroupPhase.Running,
                                        nonPreemptable("p18", "n3", a100))),
                        Map.of("ns1/pg16", "n3"),
                        Set.of("ns1/p17")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withHierarchy")
    void asVolcanosOnSessionOpenWithHierarchy(Case c) {
        check(VolcanoTables.conf("enqueue, reclaim, allocate", tier(HIERARCHICAL), ""), c);
    }

    static Stream<Case> ancestorReclaim() {
        NodeInfo n1 = node("n1", res("16", "16Gi", "nvidia.com/a100", "4", "rdma/hca", "1001", "pods", "11"));
        return Stream.of(new Case(
                "case1: Can reclaim based on parent deserved when ancestorReclaimLevel is 1",
                List.of(n1),
                List.of(
                        root(res("16", "16Gi", "nvidia.com/a100", "4", "rdma", "1000"), null),
                        queue("case1_queue1", "root", res("", "", "nvidia.com/a100", "1"), null),
                        queue("case1_queue11", "case1_queue1", null, null),
                        queue("case1_queue2", "root", null, null)),
                List.of(
                        pg(
                                "pg1",
                                "case1_queue2",
                                1,
                                PodGroupPhase.Running,
                                pod("p1", "n1", res("1", "1Gi", "nvidia.com/a100", "4", "rdma/hca", "1"))),
                        pg(
                                "pg2",
                                "case1_queue11",
                                1,
                                PodGroupPhase.Inqueue,
                                pod("p2", null, res("1", "1Gi", "nvidia.com/a100", "1", "rdma/hca", "1")))),
                Map.of("ns1/pg2", "n1"),
                Set.of("ns1/p1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ancestorReclaim")
    void asVolcanosAncestorReclaimScenarios(Case c) {
        Map<String, Set<Extension>> tier = tier(HIERARCHICAL);
        tier.put("priority", Set.of(Extension.JOB_ORDER, Extension.TASK_ORDER));
        check(
                VolcanoTables.conf(
                        "enqueue, reclaim, allocate", tier, Map.of(Capacity.NAME, "{ancestorReclaimLevel: 1}"), ""),
                c);
    }

    static void check(SchedulerConf conf, Case c) {
        SessionResult r = new Scheduler(conf).schedule(new Snapshot(c.nodes(), c.queues(), c.jobs()));
        assertThat(r.problems()).isEmpty();
        assertThat(bound(r)).as("binds").isEqualTo(new TreeMap<>(c.expectBind()));
        Map<String, String> pipelined = new TreeMap<>();
        for (SessionResult.Nomination n : r.nominations()) pipelined.put(n.job(), n.node());
        assertThat(pipelined).as("pipelined").isEqualTo(new TreeMap<>(c.expectPipelined()));
        Set<String> evicted = new TreeSet<>();
        for (SessionResult.Eviction e : r.evictions())
            evicted.add(e.job().substring(0, e.job().indexOf('/')) + "/" + e.task());
        assertThat(evicted).as("evicted").isEqualTo(new TreeSet<>(c.expectEvicted()));
        c.expectStatus()
                .forEach((job, phase) -> assertThat(r.phaseOf(job, PodGroupPhase.Pending))
                        .as(job)
                        .isEqualTo(phase));
    }
}
