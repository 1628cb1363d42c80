package io.lahar.console.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.testkit.StalledHttpPeer;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An action sent to a streams-app that froze mid-answer fails at the API timeout, never holds the request for good. */
class StreamsApiTest {

    @Test
    void aStreamsAppThatStopsMidAnswerIsGivenUpAtTheApiTimeout() throws Exception {
        ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            StreamsApi api = new StreamsApi(
                    URI.create(peer.url()), Optional.of("token"), Optional.empty(), Duration.ofSeconds(1));
            long started = System.nanoTime();
            Future<?> action = calls.submit(() -> api.act("ns", "j", "AbortJob"));
            // java.net.http's own timeout ended with the headers: this wait was the action's for good.
            assertThatThrownBy(() -> action.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessageContaining("no whole answer");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10))).isTrue();
        } finally {
            calls.shutdownNow();
        }
    }
}
