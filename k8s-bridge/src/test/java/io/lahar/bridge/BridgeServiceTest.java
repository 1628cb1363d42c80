package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BridgeServiceTest {

    @Test
    void theEmbeddedClusterOptionsOfOldAreRefusedByNameRatherThanIgnored() {
        assertThatThrownBy(() -> BridgeService.refuseEmbeddedClusterOptions(List.of(
                        "kafka.bootstrap.servers",
                        "lahar.bridge.embedded-cluster.nodes",
                        "lahar.bridge.embedded-cluster.enabled")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("lahar.bridge.embedded-cluster.enabled, lahar.bridge.embedded-cluster.nodes: ")
                .hasMessageContaining("kube-emulator");
        assertThatThrownBy(() ->
                        BridgeService.refuseEmbeddedClusterOptions(List.of("LAHAR_BRIDGE_EMBEDDED_CLUSTER_ENABLED")))
                .hasMessageStartingWith("LAHAR_BRIDGE_EMBEDDED_CLUSTER_ENABLED: ");
    }

    @Test
    void theBridgesOwnOptionsPass() {
        assertThatCode(() -> BridgeService.refuseEmbeddedClusterOptions(List.of(
                        "lahar.bridge.namespace",
                        "lahar.bridge.publish-nodes",
                        "quarkus.kubernetes-client.api-server-url")))
                .doesNotThrowAnyException();
    }
}
