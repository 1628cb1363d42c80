package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSpecTest {

    @Test
    void parsesTheBriefsExample() {
        List<NodeSpec> groups = NodeSpec.parse("4x{cpu=8,memory=32Gi,gpu=0}");

        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.count()).isEqualTo(4);
            assertThat(g.cpu()).isEqualTo("8");
            assertThat(g.memory()).isEqualTo("32Gi");
            assertThat(g.gpus()).isZero();
            assertThat(g.pods()).isEqualTo(110);
            assertThat(g.namePrefix()).isEqualTo("node");
        });
    }

    @Test
    void parsesSeveralGroupsWithLabelsAndTaints() {
        List<NodeSpec> groups = NodeSpec.parse(
                "2x{cpu=500m,memory=1Gi} + 1x{name=gpu,cpu=16,memory=64Gi,gpu=4,pods=20,label=pool=gpu,label=zone=a,"
                        + "taint=nvidia.com/gpu=present:NoSchedule,taint=dedicated:NoExecute}; 3");

        assertThat(groups).hasSize(3);
        assertThat(groups.get(0).cpu()).isEqualTo("500m");
        NodeSpec gpu = groups.get(1);
        assertThat(gpu.namePrefix()).isEqualTo("gpu");
        assertThat(gpu.gpus()).isEqualTo(4);
        assertThat(gpu.pods()).isEqualTo(20);
        assertThat(gpu.labels()).isEqualTo(Map.of("pool", "gpu", "zone", "a"));
        assertThat(gpu.taints())
                .containsExactly(
                        new NodeSpec.Taint("nvidia.com/gpu", "present", "NoSchedule"),
                        new NodeSpec.Taint("dedicated", "", "NoExecute"));
        assertThat(groups.get(2)).isEqualTo(NodeSpec.DEFAULT.withCount(3));
    }

    @Test
    void reportsEveryProblemWithItsPlace() {
        assertThatThrownBy(() -> NodeSpec.parse(
                        "0x{cpu=eight,memory=-1Gi,gpu=x,colour=red}+2x{taint=a=b:Sometimes,name=Big_Node}"))
                .isInstanceOfSatisfying(
                        InvalidNodeSpecException.class,
                        e -> assertThat(e.reasons())
                                .containsExactly(
                                        "nodes[0].count: must be at least 1, got 0",
                                        "nodes[0].cpu: \"eight\" is not a Kubernetes quantity (e.g. 8, 500m, 32Gi)",
                                        "nodes[0].memory: \"-1Gi\" is not a Kubernetes quantity (e.g. 8, 500m, 32Gi)",
                                        "nodes[0].gpu: \"x\" is not a whole number",
                                        "nodes[0].colour: unknown key; known keys are cpu, memory, gpu, pods, name, label, taint",
                                        "nodes[1].taint[a]: effect \"Sometimes\" is not NoSchedule, PreferNoSchedule or NoExecute",
                                        "nodes[1].name: \"Big_Node\" is not a DNS label (lower-case letters, digits, '-', at most 50)"));
    }

    @Test
    void rejectsEmptyAndUnclosedSpecs() {
        assertThatThrownBy(() -> NodeSpec.parse(" "))
                .isInstanceOf(InvalidNodeSpecException.class)
                .hasMessageContaining("nodes: empty");
        assertThatThrownBy(() -> NodeSpec.parse("2x{cpu=4"))
                .isInstanceOf(InvalidNodeSpecException.class)
                .hasMessageContaining("nodes[0]: '{' at offset 2 is never closed");
        assertThatThrownBy(() -> NodeSpec.parse("two"))
                .isInstanceOf(InvalidNodeSpecException.class)
                .hasMessageContaining("nodes[0]: unexpected 't' at offset 0");
    }

    @Test
    void rejectsAZeroCpu() {
        assertThatThrownBy(() -> NodeSpec.parse("{cpu=0}"))
                .isInstanceOf(InvalidNodeSpecException.class)
                .hasMessageContaining("nodes[0].cpu: must be more than zero");
    }
}
