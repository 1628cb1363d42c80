package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.testkit.StalledHttpPeer;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A read forwarded to an instance that froze mid-answer fails as an unreachable one, never waits for good. */
class ForwarderTest {

    @Test
    void anInstanceThatStopsMidAnswerIsGivenUpAtTheRequestsTimeout() throws Exception {
        Forwarder forwarder = new Forwarder();
        forwarder.token = new ApiToken(Optional.of("token"), Optional.empty());
        ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            long started = System.nanoTime();
            Future<?> read = calls.submit(() -> forwarder.fetch(peer.hostPort(), "/api/v1/jobs/ns/j"));
            // java.net.http's own timeout ended with the headers: this wait was the read's for good.
            assertThatThrownBy(() -> read.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessageContaining("no whole answer");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10))).isTrue();
        } finally {
            calls.shutdownNow();
        }
    }
}
