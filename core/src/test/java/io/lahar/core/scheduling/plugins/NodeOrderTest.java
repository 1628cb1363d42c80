package io.lahar.core.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeOrderTest {

    private final Session ssn = Session.open(
            SchedulerConf.defaults(),
            new Snapshot(
                    List.of(
                            NodeInfo.builder("empty")
                                    .allocatable(Map.of("cpu", "4", "memory", "4Gi"))
                                    .build(),
                            NodeInfo.builder("half")
                                    .allocatable(Map.of("cpu", "4", "memory", "4Gi"))
                                    .otherUsed(
                                            io.lahar.core.resource.Resource.parse(Map.of("cpu", "2", "memory", "1Gi")),
                                            1)
                                    .build()),
                    List.of(),
                    List.of(JobInfo.builder("j")
                            .tasks("w", 1, Map.of("cpu", "1", "memory", "1Gi"))
                            .build())),
            PluginRegistry.defaults());
    private final SessionTask task = ssn.job("default/j").tasks().get(0);
    private final SessionNode empty = ssn.node("empty");
    private final SessionNode half = ssn.node("half");

    @Test
    void leastRequestedPrefersTheEmptierNode() {
        NodeOrder least = new NodeOrder(Arguments.of("balancedresource.weight", 0));
        assertThat(least.score(task, empty)).isEqualTo(75.0); // (3/4 + 3/4) / 2
        assertThat(least.score(task, half)).isGreaterThan(0).isLessThan(least.score(task, empty));
    }

    /** Kubernetes' LeastAllocated (Volcano's nodeorder wraps it): integer percent per resource, integer mean. */
    @Test
    void leastAllocatedScoresInIntegersAsKubernetes() {
        NodeOrder least = new NodeOrder(Arguments.of("balancedresource.weight", 0));
        // cpu (4-3)*100/4 = 25, memory (4-2)*100/4 = 50, (25*50 + 50*50) / 100 = 37 (not 37.5)
        assertThat(least.score(task, half)).isEqualTo(37.0);
    }

    /** Kubernetes' BalancedAllocation since 1.23: (1 - std) * 100, std = |cpu - memory| / 2 for two resources. */
    @Test
    void balancedAllocationIsOneMinusTheStandardDeviationOfTheFractions() {
        NodeOrder balanced = new NodeOrder(Arguments.of("leastrequested.weight", 0));
        assertThat(balanced.score(task, empty)).isEqualTo(100.0);
        assertThat(balanced.score(task, half))
                .isEqualTo(87.0); // cpu 3/4, memory 2/4: (1 - 1/8) * 100 = 87.5, truncated
    }

    /** Kubernetes caps each fraction at 1 and no longer scores a node it fills as 0. */
    @Test
    void balancedAllocationScoresAFullNodeByItsBalanceNotZero() {
        Session s = Session.open(
                SchedulerConf.defaults(),
                new Snapshot(
                        List.of(NodeInfo.builder("n")
                                .allocatable(Map.of("cpu", "2", "memory", "4Gi"))
                                .build()),
                        List.of(),
                        List.of(JobInfo.builder("j")
                                .tasks("w", 1, Map.of("cpu", "2", "memory", "2Gi"))
                                .build())),
                PluginRegistry.defaults());
        NodeOrder balanced = new NodeOrder(Arguments.of("leastrequested.weight", 0));
        // cpu 2/2 = 1, memory 2/4: (1 - 1/4) * 100 = 75
        assertThat(balanced.score(s.job("default/j").tasks().get(0), s.node("n")))
                .isEqualTo(75.0);
    }

    /** Volcano passes nvidia.com/gpu to BalancedAllocation; Kubernetes counts it only when the pod requests it. */
    @Test
    void balancedAllocationCountsGpuOnlyForAPodThatRequestsIt() {
        Session s = Session.open(
                SchedulerConf.defaults(),
                new Snapshot(
                        List.of(NodeInfo.builder("n")
                                .allocatable(Map.of("cpu", "4", "memory", "4Gi", "nvidia.com/gpu", "4"))
                                .build()),
                        List.of(),
                        List.of(
                                JobInfo.builder("cpu")
                                        .tasks("w", 1, Map.of("cpu", "1", "memory", "1Gi"))
                                        .build(),
                                JobInfo.builder("gpu")
                                        .tasks("w", 1, Map.of("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "4"))
                                        .build())),
                PluginRegistry.defaults());
        NodeOrder balanced = new NodeOrder(Arguments.of("leastrequested.weight", 0));
        assertThat(balanced.score(s.job("default/cpu").tasks().get(0), s.node("n")))
                .isEqualTo(100.0);
        // fractions 1/4, 1/4, 1: mean 1/2, std = sqrt((1/16 + 1/16 + 1/4) / 3) = 0.3536 -> 64
        assertThat(balanced.score(s.job("default/gpu").tasks().get(0), s.node("n")))
                .isEqualTo(64.0);
    }

    @Test
    void mostRequestedIsTheOpposite() {
        NodeOrder most = new NodeOrder(
                Arguments.of("leastrequested.weight", 0, "balancedresource.weight", 0, "mostrequested.weight", 2));
        assertThat(most.score(task, half)).isGreaterThan(most.score(task, empty));
    }

    @Test
    void binpackPrefersTheFullerNode() {
        Binpack b = new Binpack(Arguments.EMPTY);
        assertThat(b.score(task, half)).isGreaterThan(b.score(task, empty));
        assertThat(b.score(task, empty)).isEqualTo(25.0); // cpu 1/4, memory 1/4
    }

    @Test
    void fixturesStillBuildNodes() {
        assertThat(Fixtures.node("x", "1", "1Gi").allocatable().pods()).isEqualTo(NodeInfo.DEFAULT_MAX_PODS);
    }
}
