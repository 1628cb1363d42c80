package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.reconcile.PodWrites;
import io.lahar.bridge.reconcile.StalledAnswers;
import io.lahar.schema.StalledHttpPeer;
import io.lahar.schema.deadletter.Failures;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge's client against an API whose answers stall: one that sent its headers and then went
 * silent fails the call as an API that does not answer, within its silence, for the DSL's calls
 * and {@link PodWrites} alike; one whose body keeps coming is read to its end.
 */
class BridgeKubernetesClientTest {

    private static final String POD = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\","
            + "\"namespace\":\"ns\",\"uid\":\"u-1\",\"resourceVersion\":\"7\"}," + "\"spec\":{\"containers\":[]}}";

    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
    private ServerSocket server;

    @AfterEach
    void close() throws IOException {
        calls.shutdownNow();
        if (server != null) server.close();
    }

    @Test
    void anAnswerWhoseBodyStallsAfterItsHeadersFailsAsAnApiThatDoesNotAnswerAndFreesItsConnection() throws Exception {
        try (StalledHttpPeer peer = StalledHttpPeer.start();
                KubernetesClient client = client(peer.port(), Duration.ofSeconds(1))) {
            long started = System.nanoTime();
            assertFailsAsUnanswered(
                    peer, () -> client.pods().inNamespace("ns").withName("p").get());
            assertFailsAsUnanswered(peer, () -> new PodWrites(client).create("ns", pod()));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
            assertThat(peer.awaitClosedByClient(2, Duration.ofSeconds(10)))
                    .as("the stalled connections reset, not left in the pool")
                    .isTrue();
        }
    }

    @Test
    void aBodyThatKeepsComingIsReadToItsEndHoweverLongItTakesInAll() throws Exception {
        serve(socket -> {
            socket.getInputStream().read(new byte[8192]);
            OutputStream out = socket.getOutputStream();
            out.write(headers(200, POD.length()));
            out.flush();
            // Parts 400 ms apart: never silent for the second the client allows, 2.4 s in all.
            for (int from = 0; from < POD.length(); from += POD.length() / 6 + 1) {
                sleep(400);
                out.write(POD.substring(from, Math.min(POD.length(), from + POD.length() / 6 + 1))
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            socket.getInputStream().read();
        });
        try (KubernetesClient client = client(server.getLocalPort(), Duration.ofSeconds(1))) {
            Future<Pod> read = calls.submit(
                    () -> client.pods().inNamespace("ns").withName("p").get());
            assertThat(read.get(30, TimeUnit.SECONDS).getMetadata().getUid()).isEqualTo("u-1");
        }
    }

    @Test
    void watchesAreLeftAlone() {
        StalledAnswers stalled = new StalledAnswers(Duration.ofSeconds(1));
        AsyncBody.Consumer<List<ByteBuffer>> consumer = (value, body) -> {};
        assertThat(stalled.consumer(consumer, request("/api/v1/namespaces/ns/pods?watch=true&resourceVersion=5")))
                .isSameAs(consumer);
        assertThat(stalled.consumer(consumer, request("/api/v1/pods?labelSelector=a&watch=true")))
                .isSameAs(consumer);
        assertThat(stalled.consumer(consumer, request("/api/v1/namespaces/ns/pods?labelSelector=watch%3Dtrue")))
                .isNotSameAs(consumer);
        assertThat(stalled.consumer(consumer, request("/api/v1/namespaces/ns/pods/p")))
                .isNotSameAs(consumer);
    }

    private static void assertFailsAsUnanswered(StalledHttpPeer peer, Callable<?> call) throws Exception {
        // Without the stalled body ended, this wait is the call's: it never ends.
        Throwable failure = peer.call(call, Duration.ofSeconds(30)).failure();
        assertThat(failure)
                .isInstanceOf(KubernetesClientException.class)
                .hasRootCauseInstanceOf(SocketTimeoutException.class)
                .rootCause()
                .hasMessage("no part of the answer's body for 1000 ms");
        assertThat(Failures.isTransient(failure)).isTrue();
    }

    private static KubernetesClient client(int port, Duration requestTimeout) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + port)
                .withRequestTimeout((int) requestTimeout.toMillis())
                .withRequestRetryBackoffLimit(0)
                .build();
        return BridgeKubernetesClient.build(new KubernetesSerialization(), config);
    }

    private interface Conversation {
        void on(Socket socket) throws IOException;
    }

    private void serve(Conversation conversation) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofPlatform().daemon().start(() -> {
                        try (socket) {
                            conversation.on(socket);
                        } catch (IOException e) {
                            // the client went away
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private static byte[] headers(int status, int length) {
        return ("HTTP/1.1 " + status + " OK\r\nContent-Type: application/json\r\nContent-Length: " + length
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static Pod pod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .endMetadata()
                .build();
    }

    private static HttpRequest request(String path) {
        return new StandardHttpRequest.Builder().uri("http://127.0.0.1" + path).build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
