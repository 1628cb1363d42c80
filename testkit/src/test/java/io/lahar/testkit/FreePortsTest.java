package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsAreDistinctBindableAndOutsideTheEphemeralRange() throws IOException {
        int[] ephemeral = FreePorts.ephemeralRange();
        int[] ports = FreePorts.distinct(200);
        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(200);
        assertThat(Arrays.stream(ports).boxed().toList())
                .allMatch(p -> p >= FreePorts.LOWEST && p <= 65_535)
                .noneMatch(p -> p >= ephemeral[0] && p <= ephemeral[1]);
        try (ServerSocket socket = new ServerSocket(ports[0], 1, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(ports[0]);
        }
    }

    @Test
    void theRangeIsBelowTheEphemeralOneWhenThereIsRoomElseAbove() {
        assertThat(FreePorts.candidates(new int[] {32_768, 60_999})).containsExactly(20_000, 32_767);
        assertThat(FreePorts.candidates(new int[] {10_000, 60_000})).containsExactly(60_001, 65_535);
        assertThatThrownBy(() -> FreePorts.candidates(new int[] {1_024, 65_000}))
                .isInstanceOf(InfraException.class)
                .hasMessageContaining("1024-65000");
    }
}
