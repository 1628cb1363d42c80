package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.NodeSelectorRequirement;
import io.lahar.core.scheduling.api.NodeSelectorRequirement.Operator;
import io.lahar.core.scheduling.api.NodeSelectorTerm;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PredicatesTest {

    private static final List<NodeInfo> NODES = List.of(
            NodeInfo.builder("cpu-1")
                    .allocatable(Map.of("cpu", "8", "memory", "32Gi"))
                    .label("zone", "a")
                    .label("gen", "3")
                    .build(),
            NodeInfo.builder("gpu-1")
                    .allocatable(Map.of("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "4"))
                    .label("accelerator", "gpu")
                    .label("zone", "b")
                    .label("gen", "5")
                    .taint("dedicated", "gpu", TaintEffect.NoSchedule)
                    .build(),
            NodeInfo.builder("old-1")
                    .allocatable(Map.of("cpu", "8", "memory", "32Gi"))
                    .label("zone", "a")
                    .unschedulable(true)
                    .build());

    private static SessionResult place(TaskInfo.Builder task) {
        JobInfo j = JobInfo.builder("j").task(task.role("worker").build()).build();
        return run(NODES, List.of(), List.of(j));
    }

    private static TaskInfo.Builder task() {
        return TaskInfo.builder("j-worker-0").resreq(Map.of("cpu", "1", "memory", "1Gi"));
    }

    @Test
    void selectorWithoutTolerationIsRefusedWithEveryReason() {
        SessionResult r = place(task().nodeSelector("accelerator", "gpu"));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("j")).message())
                .isEqualTo("1/1 tasks in gang unschedulable: only 0 of minMember 1 tasks could be placed; "
                        + "task worker: 0/3 nodes are available: 1 node(s) didn't match node selector, "
                        + "1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable");
    }

    @Test
    void selectorWithTolerationLandsOnTheTaintedNode() {
        SessionResult r = place(task().nodeSelector("accelerator", "gpu")
                .toleration(Toleration.equal("dedicated", "gpu", TaintEffect.NoSchedule)));
        assertThat(r.bindings())
                .singleElement()
                .extracting(SessionResult.Binding::node)
                .isEqualTo("gpu-1");
    }

    @Test
    void extendedResourcesAreCounted() {
        TaskInfo.Builder greedy = task().resreq(Map.of("cpu", "1", "nvidia.com/gpu", "8"))
                .toleration(Toleration.exists("dedicated", null));
        // The enqueue gate sees it first: 4 gpus x 1.2 < 8.
        assertThat(place(greedy).conditions().get(key("j")).message())
                .contains("minResources nvidia.com/gpu 8 > 4800m available");
        // Admitted anyway (an Inqueue pod group), proportion caps the queue at the cluster's 4 gpus.
        JobInfo j = JobInfo.builder("j")
                .task(greedy.role("worker").build())
                .phase(io.lahar.core.api.PodGroupPhase.Inqueue)
                .build();
        assertThat(run(NODES, List.of(), List.of(j)).conditions().get(key("j")).message())
                .contains(
                        "queue \"default\" would exceed its deserved share: nvidia.com/gpu allocated 0 + request 8 > deserved 4");
        // Without proportion, the nodes say why.
        var noProportion = io.lahar.core.scheduling.Fixtures.conf(
                io.lahar.core.scheduling.framework.SchedulerConf.DEFAULT_YAML.replace("  - name: proportion\n", ""));
        assertThat(io.lahar.core.scheduling.Fixtures.run(noProportion, NODES, List.of(), List.of(j))
                        .conditions()
                        .get(key("j"))
                        .message())
                .contains("0/3 nodes are available: 2 Insufficient nvidia.com/gpu (need 8, largest free 4 on gpu-1), "
                        + "1 node(s) were unschedulable");
    }

    @Test
    void requiredNodeAffinity() {
        NodeAffinity newGen =
                NodeAffinity.of(NodeSelectorTerm.of(new NodeSelectorRequirement("gen", Operator.Gt, List.of("4"))));
        assertThat(place(task().affinity(newGen).toleration(Toleration.exists("", null)))
                        .bindings())
                .singleElement()
                .extracting(SessionResult.Binding::node)
                .isEqualTo("gpu-1");
        NodeAffinity notB = NodeAffinity.of(
                NodeSelectorTerm.of(new NodeSelectorRequirement("zone", Operator.NotIn, List.of("b"))),
                NodeSelectorTerm.of(new NodeSelectorRequirement("nothing", Operator.Exists, null)));
        assertThat(place(task().affinity(notB).toleration(Toleration.exists("", null)))
                        .bindings())
                .singleElement()
                .extracting(SessionResult.Binding::node)
                .isEqualTo("cpu-1");
        NodeAffinity none =
                NodeAffinity.of(NodeSelectorTerm.of(new NodeSelectorRequirement("zone", Operator.In, List.of("c"))));
        assertThat(place(task().affinity(none)).conditions().get(key("j")).message())
                .contains("2 node(s) didn't match required node affinity");
    }

    @Test
    void toleratingUnschedulableIsAllowed() {
        TaskInfo t = task().nodeSelector("zone", "a").build();
        assertThat(new Predicates(Arguments.EMPTY).check(t, NODES.get(2))).isEqualTo(Predicates.UNSCHEDULABLE);
        TaskInfo tolerant = task().toleration(
                        Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NoSchedule))
                .build();
        assertThat(new Predicates(Arguments.EMPTY).check(tolerant, NODES.get(2)))
                .isNull();
    }

    /** Volcano's pod-number predicate, with its reason: a node whose pods reach its allocatable pods takes no more. */
    @Test
    void tooManyPods() {
        NodeInfo tiny = NodeInfo.builder("tiny")
                .allocatable(Map.of("cpu", "8", "memory", "8Gi", "pods", "2"))
                .build();
        JobInfo j = JobInfo.builder("j")
                .tasks("w", 3, Map.of("cpu", "100m"))
                .minMember(3)
                .build();
        SessionResult r = run(List.of(tiny), List.of(), List.of(j));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("j")).message())
                .contains("0/1 nodes are available: 1 node(s) pod number exceeded");
    }

    private static NodeInfo tiny(int pods) {
        return NodeInfo.builder("tiny")
                .allocatable(Map.of("cpu", "4", "memory", "4Gi", "pods", String.valueOf(pods)))
                .build();
    }

    private static JobInfo leaving(String cpu) {
        return JobInfo.builder("leaving")
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("l-0")
                        .resreq(Map.of("cpu", cpu))
                        .on("tiny", TaskStatus.Releasing)
                        .build())
                .build();
    }

    /** A releasing pod is still one of the node's pods (Volcano's nodeInfo holds it): nothing is pipelined onto its slot. */
    @Test
    void aReleasingPodKeepsItsSlot() {
        JobInfo next = JobInfo.builder("next")
                .tasks("w", 1, Map.of("cpu", "1"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(List.of(tiny(1)), List.of(), List.of(leaving("1"), next));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.nominations()).isEmpty();
        assertThat(r.conditions().get(key("next")).message()).contains("1 node(s) pod number exceeded");
    }

    /**
     * A pipelined pod is one of the node's pods (the predicates plugin's event handlers add it): the
     * task pipelined onto the releasing pod's resources takes the last slot, so the best-effort task
     * backfill tries next finds none.
     */
    @Test
    void aPipelinedPodTakesItsSlot() {
        JobInfo next = JobInfo.builder("next")
                .tasks("w", 1, Map.of("cpu", "4"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        JobInfo be = JobInfo.builder("be")
                .tasks("w", 1, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(List.of(tiny(2)), List.of(), List.of(leaving("4"), next, be));
        assertThat(r.nominations())
                .singleElement()
                .satisfies(n -> assertThat(n.job()).isEqualTo(key("next")));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("be")).message()).contains("1 node(s) pod number exceeded");
    }
}
