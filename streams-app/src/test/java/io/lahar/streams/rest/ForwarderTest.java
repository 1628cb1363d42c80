package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.StalledHttpPeer;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A read forwarded to an instance that froze mid-answer fails as an unreachable one, never waits for good. */
class ForwarderTest {

    @Test
    void anInstanceThatStopsMidAnswerIsGivenUpAtTheRequestsTimeout() throws Exception {
        Forwarder forwarder = new Forwarder();
        forwarder.token = new ApiToken(Optional.of("token"), Optional.empty());
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            StalledHttpPeer.Ended read =
                    peer.call(() -> forwarder.fetch(peer.hostPort(), "/api/v1/jobs/ns/j"), Duration.ofSeconds(60));
            // java.net.http's own timeout ended with the headers: this wait was the read's for good.
            assertThat(read.failure()).isInstanceOf(HttpTimeoutException.class).hasMessageContaining("no whole answer");
            assertThat(read.after()).isLessThan(Duration.ofSeconds(30));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10))).isTrue();
        }
    }
}
