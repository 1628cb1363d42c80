package io.lahar.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.StalledHttpPeer;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A verb against a streams-app that froze mid-answer fails at its timeout, never waits for good. */
class LaharApiTest {

    @Test
    void aStreamsAppThatStopsMidAnswerIsGivenUpAtTheTimeout() throws Exception {
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            LaharApi api = new LaharApi(peer.url(), "token", Duration.ofSeconds(1));
            StalledHttpPeer.Ended view = peer.call(() -> api.get("/api/v1/jobs/ns/j"), Duration.ofSeconds(30));
            // java.net.http's own timeout ended with the headers: this wait was the verb's for good.
            assertThat(view.failure()).isInstanceOf(HttpTimeoutException.class).hasMessageContaining("no whole answer");
            assertThat(view.after()).isLessThan(Duration.ofSeconds(10));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10))).isTrue();
        }
    }
}
