package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NodeRecordsTest {

    @Test
    void nodeRecordCarriesResourcesLabelsTaintsAndReadiness() {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-0")
                .addToLabels("pool", "gpu")
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(true)
                .addNewTaint()
                .withKey("nvidia.com/gpu")
                .withValue("present")
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity("7500m"))
                .addToAllocatable("memory", new Quantity("30Gi"))
                .addToCapacity("cpu", new Quantity("8"))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();

        var record = NodeRecords.node(node, Instant.EPOCH);

        assertThat(record.getName()).isEqualTo("gpu-0");
        assertThat(record.getAllocatable()).containsEntry("cpu", "7500m").containsEntry("memory", "30Gi");
        assertThat(record.getCapacity()).containsEntry("cpu", "8");
        assertThat(record.getLabels()).containsEntry("pool", "gpu");
        assertThat(record.getTaints()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("nvidia.com/gpu");
            assertThat(t.getValue()).isEqualTo("present");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(record.getUnschedulable()).isTrue();
        assertThat(record.getReady()).isTrue();
    }

    @Test
    void aNodeWithoutReadyConditionIsNotReady() {
        var node =
                new NodeBuilder().withNewMetadata().withName("n").endMetadata().build();
        var record = NodeRecords.node(node, Instant.EPOCH);
        assertThat(record.getReady()).isFalse();
        assertThat(record.getUnschedulable()).isFalse();
        assertThat(record.getAllocatable()).isEmpty();
    }
}
