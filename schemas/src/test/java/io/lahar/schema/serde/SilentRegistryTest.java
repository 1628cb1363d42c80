package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.Node;
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
 * A registry that accepts connections and never answers: the first record of a topic needs it (to
 * register the schema), and the serializer must fail after its retries instead of waiting forever.
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
    void aRegistryThatNeverAnswersFailsTheRecordAfterRetryingInsteadOfHanging() throws Exception {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor.submit(() -> {
            while (!silent.isClosed()) accepted.add(silent.accept());
            return null;
        });
        String url = "http://127.0.0.1:" + silent.getLocalPort() + "/apis/registry/v3";
        var serializer = new RegistrySerdes(url, Duration.ofSeconds(1)).value(Node.class).serializer();
        Node node = Node.newBuilder().setName("n-0").setAllocatable(Map.of("cpu", "8")).setTime(java.time.Instant.EPOCH).build();

        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> write = sender.submit(() -> serializer.serialize("lahar.nodes", node));
            // 4 attempts × 1 s of silence + backoff 0.25 + 0.5 + 1 s: failed well within a minute.
            assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(io.vertx.core.http.HttpClosedException.class);
        } finally {
            sender.shutdownNow();
        }
        // Each attempt was its own request on a connection of its own: the silent ones were closed.
        assertThat(accepted).hasSize(RegistrySerdes.ATTEMPTS);
    }

    @Test
    void onlyALostConnectionIsSentAgainNotADecodingError() {
        // As Apicurio's client wraps them: RuntimeException(RuntimeException(ExecutionException(cause))).
        assertThat(RegistrySerdes.lostConnection(wrapped(new io.vertx.core.http.HttpClosedException("closed")))).isTrue();
        assertThat(RegistrySerdes.lostConnection(wrapped(new java.net.ConnectException("refused")))).isTrue();
        assertThat(RegistrySerdes.lostConnection(wrapped(new java.net.SocketTimeoutException("timed out")))).isTrue();
        assertThat(RegistrySerdes.lostConnection(wrapped(new java.io.EOFException("truncated record")))).isFalse();
        assertThat(RegistrySerdes.lostConnection(new org.apache.kafka.common.errors.SerializationException("unknown magic byte"))).isFalse();
    }

    private static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException(new RuntimeException(new java.util.concurrent.ExecutionException(cause)));
    }
}
