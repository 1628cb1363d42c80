package io.lahar.console.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.StalledHttpPeer;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An action sent to a streams-app that froze mid-answer fails at the API timeout, never holds the request for good. */
class StreamsApiTest {

    @Test
    void aStreamsAppThatStopsMidAnswerIsGivenUpAtTheApiTimeout() throws Exception {
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            StreamsApi api = new StreamsApi(
                    URI.create(peer.url()), Optional.of("token"), Optional.empty(), Duration.ofSeconds(1));
            StalledHttpPeer.Ended action = peer.call(() -> api.act("ns", "j", "AbortJob"), Duration.ofSeconds(30));
            // java.net.http's own timeout ended with the headers: this wait was the action's for good.
            assertThat(action.failure())
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessageContaining("no whole answer");
            assertThat(action.after()).isLessThan(Duration.ofSeconds(10));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10))).isTrue();
        }
    }
}
