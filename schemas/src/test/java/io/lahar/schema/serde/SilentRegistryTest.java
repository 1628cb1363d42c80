package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.Node;
import io.lahar.schema.deadletter.Failures;
import io.lahar.schema.deadletter.TransientFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A registry that does not answer: the first record of a topic needs it (to register the schema),
 * and the serializer keeps trying for its wait, then fails as transient instead of waiting forever
 * (or dead-lettering anything).
 */
class SilentRegistryTest {
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final ExecutorService acceptor = Executors.newSingleThreadExecutor();
    private ServerSocket silent;

    @AfterEach
    void close() throws IOException {
        acceptor.shutdownNow();
        if (silent != null) silent.close();
        for (Socket socket : accepted) socket.close();
    }

    @Test
    void aRegistryThatNeverAnswersFailsTheRecordAsTransientAfterRetryingInsteadOfHanging() throws Exception {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor.submit(() -> {
            while (!silent.isClosed()) accepted.add(silent.accept());
            return null;
        });
        String url = "http://127.0.0.1:" + silent.getLocalPort() + "/apis/registry/v3";
        RegistrySerdes serdes = new RegistrySerdes(url, Duration.ofSeconds(1), Duration.ofSeconds(5));
        var serializer = serdes.value(Node.class).serializer();
        Node node = Node.newBuilder()
                .setName("n-0")
                .setAllocatable(Map.of("cpu", "8"))
                .setTime(java.time.Instant.EPOCH)
                .build();

        ExecutorService sender = Executors.newSingleThreadExecutor();
        long started = System.nanoTime();
        try {
            Future<byte[]> write = sender.submit(() -> serializer.serialize("lahar.nodes", node));
            // Attempts of 1 s of silence with pauses between, until 5 s have passed: failed well within a minute.
            assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TransientFailure.class)
                    .hasRootCauseInstanceOf(io.vertx.core.http.HttpClosedException.class);
        } finally {
            sender.shutdownNow();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("tried again after the first silence")
                .isGreaterThan(Duration.ofSeconds(4));
        assertThat(accepted).isNotEmpty();
        assertThat(serdes.outage())
                .hasValueSatisfying(o -> assertThat(o).contains(url).contains("HttpClosedException"));
    }

    @Test
    void anAnswerTricklingInSlowerThanTheIdleTimeoutEndsTheCallAtItsDeadlineNotWhenTheAnswerEnds() throws Exception {
        // Headers, then a byte of a 1 MB body every 300 ms: never idle for the 1-s idle timeout, so
        // only the call's own deadline (idle + connect timeouts: 6 s) ends the wait.
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor.submit(() -> {
            while (!silent.isClosed()) {
                Socket socket = silent.accept();
                accepted.add(socket);
                Thread.ofPlatform().daemon().start(() -> trickle(socket));
            }
            return null;
        });
        String url = "http://127.0.0.1:" + silent.getLocalPort() + "/apis/registry/v3";
        RegistrySerdes serdes = new RegistrySerdes(url, Duration.ofSeconds(1), Duration.ofSeconds(5));
        var deserializer = serdes.value(Node.class).deserializer();

        ExecutorService reader = Executors.newSingleThreadExecutor();
        long started = System.nanoTime();
        try {
            Future<Node> read =
                    reader.submit(() -> deserializer.deserialize("lahar.nodes", new byte[] {0, 0, 0, 0, 7, 2, 98}));
            assertThatThrownBy(() -> read.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TransientFailure.class)
                    .hasRootCauseInstanceOf(java.util.concurrent.TimeoutException.class)
                    .rootCause()
                    .hasMessageContaining("within 6 s");
        } finally {
            reader.shutdownNow();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(serdes.outage()).hasValueSatisfying(o -> assertThat(o).contains("within 6 s"));
    }

    private static void trickle(Socket socket) {
        try (socket) {
            var out = socket.getOutputStream();
            socket.getInputStream().read(new byte[8192]);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            while (true) {
                out.write(' ');
                out.flush();
                Thread.sleep(300);
            }
        } catch (IOException | InterruptedException e) {
            // the client gave up, or the test ended
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
