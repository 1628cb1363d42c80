package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

    @Test
    void aPublishLingerFromZeroToOneSecondIsTakenAndAnyOtherRefused() {
        assertThat(settings(Duration.ZERO).publishLinger()).isZero();
        assertThat(settings(Duration.ofSeconds(1)).publishLinger()).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> settings(Duration.ofMillis(1001)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lahar.bridge.publish-linger: must be from 0 to 1000 ms, not 1001 ms");
        assertThatThrownBy(() -> settings(Duration.ofMillis(-1)))
                .hasMessage("lahar.bridge.publish-linger: must be from 0 to 1000 ms, not -1 ms");
        assertThat(new Bridge.Settings(
                                KafkaClients.plaintext("127.0.0.1:1"),
                                "http://127.0.0.1:1",
                                null,
                                "g",
                                true,
                                Optional.empty(),
                                true,
                                Set.of("volcano"))
                        .publishLinger())
                .as("the default")
                .isEqualTo(Duration.ofMillis(25));
    }

    private static Bridge.Settings settings(Duration linger) {
        return new Bridge.Settings(
                KafkaClients.plaintext("127.0.0.1:1"),
                "http://127.0.0.1:1",
                null,
                "g",
                true,
                Optional.empty(),
                true,
                Set.of("volcano"),
                linger);
    }
}
