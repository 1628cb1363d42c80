package io.lahar.cli.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.testkit.StalledHttpPeer;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A verb against a streams-app that froze mid-answer fails at its timeout, never waits for good. */
class LaharApiTest {

    @Test
    void aStreamsAppThatStopsMidAnswerIsGivenUpAtTheTimeout() throws Exception {
        ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            LaharApi api = new LaharApi(peer.url(), "token", Duration.ofSeconds(1));
            long started = System.nanoTime();
            Future<?> view = calls.submit(() -> api.get("/api/v1/jobs/ns/j"));
            // java.net.http's own timeout ended with the headers: this wait was the verb's for good.
            assertThatThrownBy(() -> view.get(30, TimeUnit.SECONDS))
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
