package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.Node;
import io.lahar.schema.StalledHttpPeer;
import io.lahar.schema.deadletter.Failures;
import io.lahar.schema.deadletter.TransientFailure;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A registry that does not answer: the first record of a topic needs it (to register the schema),
 * and the serializer keeps trying for its wait, then fails as transient instead of waiting forever
 * (or dead-lettering anything).
 */
class SilentRegistryTest {

    @Test
    void aRegistryThatNeverAnswersFailsTheRecordAsTransientAfterRetryingInsteadOfHanging() throws Exception {
        try (StalledHttpPeer silent = StalledHttpPeer.startSilent()) {
            String url = silent.url() + "/apis/registry/v3";
            RegistrySerdes serdes = new RegistrySerdes(url, Duration.ofSeconds(1), Duration.ofSeconds(5));
            var serializer = serdes.value(Node.class).serializer();
            Node node = Node.newBuilder()
                    .setName("n-0")
                    .setAllocatable(Map.of("cpu", "8"))
                    .setTime(java.time.Instant.EPOCH)
                    .build();

            StalledHttpPeer.Ended write =
                    silent.call(() -> serializer.serialize("lahar.nodes", node), Duration.ofSeconds(60));
            // Attempts of 1 s of silence with pauses between, until 5 s have passed: failed well within a minute.
            assertThat(write.failure())
                    .isInstanceOf(TransientFailure.class)
                    .hasRootCauseInstanceOf(io.vertx.core.http.HttpClosedException.class);
            assertThat(write.after()).as("tried again after the first silence").isGreaterThan(Duration.ofSeconds(4));
            assertThat(silent.accepted()).isPositive();
            assertThat(serdes.outage())
                    .hasValueSatisfying(o -> assertThat(o).contains(url).contains("HttpClosedException"));
        }
    }

    @Test
    void anAnswerTricklingInSlowerThanTheIdleTimeoutEndsTheCallAtItsDeadlineNotWhenTheAnswerEnds() throws Exception {
        // Headers, then a byte of a 1 MB body every 300 ms: never idle for the 1-s idle timeout, so
        // only the call's own deadline (idle + connect timeouts: 6 s) ends the wait.
        try (StalledHttpPeer trickling = StalledHttpPeer.startTrickling(Duration.ofMillis(300))) {
            String url = trickling.url() + "/apis/registry/v3";
            RegistrySerdes serdes = new RegistrySerdes(url, Duration.ofSeconds(1), Duration.ofSeconds(5));
            var deserializer = serdes.value(Node.class).deserializer();

            StalledHttpPeer.Ended read = trickling.call(
                    () -> deserializer.deserialize("lahar.nodes", new byte[] {0, 0, 0, 0, 7, 2, 98}),
                    Duration.ofSeconds(60));
            assertThat(read.failure())
                    .isInstanceOf(TransientFailure.class)
                    .hasRootCauseInstanceOf(java.util.concurrent.TimeoutException.class)
                    .rootCause()
                    .hasMessageContaining("within 6 s");
            assertThat(read.after()).isLessThan(Duration.ofSeconds(20));
            assertThat(serdes.outage()).hasValueSatisfying(o -> assertThat(o).contains("within 6 s"));
        }
    }

    @Test
    void aRegistryThatRefusesConnectionsIsAnOutageTheCallWaitsOut() {
        RegistrySerdes serdes = new RegistrySerdes("http://127.0.0.1:1/apis/registry/v3", Duration.ofSeconds(1));
        var deserializer = serdes.value(Node.class).deserializer();
        long started = System.nanoTime();
        assertThatThrownBy(() -> deserializer.deserialize("lahar.nodes", new byte[] {0, 0, 0, 0, 7, 2, 98}))
                .isInstanceOf(TransientFailure.class)
                .hasMessageContaining("does not answer (tried for 1 s)")
                .hasRootCauseInstanceOf(java.net.ConnectException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("tried again for the wait")
                .isGreaterThan(Duration.ofMillis(500));
        assertThat(Failures.isTransient(new RuntimeException(new TransientFailure("away", null))))
                .isTrue();
        assertThat(serdes.outage()).isPresent();
    }

    @Test
    void aViewWithAnotherWaitSharesTheRegistrysOutageAndAStopEndsEveryWait() {
        RegistrySerdes serdes = new RegistrySerdes("http://127.0.0.1:1/apis/registry/v3", Duration.ofSeconds(1));
        RegistrySerdes patient = serdes.withWait(Duration.ofMinutes(5));
        assertThat(serdes.outage()).isEmpty();
        serdes.stopWaiting();
        long started = System.nanoTime();
        assertThatThrownBy(() -> patient.value(Node.class)
                        .deserializer()
                        .deserialize("lahar.nodes", new byte[] {0, 0, 0, 0, 7, 2, 98}))
                .isInstanceOf(TransientFailure.class)
                .hasMessageContaining("no more waiting: shutting down");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("not the view's five minutes")
                .isLessThan(Duration.ofSeconds(30));
        assertThat(serdes.outage()).as("one registry, one outage").isPresent();
    }

    @Test
    void onlyARegistryThatDoesNotAnswerIsTriedAgainNotADecodingErrorOrAnAnswer() {
        // As Apicurio's client wraps them: RuntimeException(RuntimeException(ExecutionException(cause))).
        assertThat(RegistrySerdes.unanswered(wrapped(new io.vertx.core.http.HttpClosedException("closed"))))
                .isTrue();
        assertThat(RegistrySerdes.unanswered(wrapped(new java.net.ConnectException("refused"))))
                .isTrue();
        assertThat(RegistrySerdes.unanswered(wrapped(new java.net.SocketTimeoutException("timed out"))))
                .isTrue();
        assertThat(RegistrySerdes.unanswered(wrapped(problem(503)))).isTrue();
        assertThat(RegistrySerdes.unanswered(wrapped(problem(429)))).isTrue();
        assertThat(RegistrySerdes.unanswered(wrapped(problem(404)))).isFalse();
        assertThat(RegistrySerdes.unanswered(wrapped(new java.io.EOFException("truncated record"))))
                .isFalse();
        assertThat(RegistrySerdes.unanswered(
                        new org.apache.kafka.common.errors.SerializationException("unknown magic byte")))
                .isFalse();
        assertThat(RegistrySerdes.answer(wrapped(problem(404)))).hasValue("404 ContentNotFoundException: no such id");
        assertThat(RegistrySerdes.answer(new IllegalStateException("Unknown magic byte!")))
                .isEmpty();
    }

    private static io.apicurio.registry.rest.client.models.ProblemDetails problem(int status) {
        var problem = new io.apicurio.registry.rest.client.models.ProblemDetails();
        problem.setStatus(status);
        problem.setDetail("ContentNotFoundException: no such id");
        return problem;
    }

    private static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException(new RuntimeException(new java.util.concurrent.ExecutionException(cause)));
    }
}
