package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A peer that sends the headers of its answer and then nothing: the call ends at the request's
 * timeout, as silence before the headers does, and lets go of the connection.
 */
class HttpCallsTest {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
    private ServerSocket server;

    @AfterEach
    void close() throws IOException {
        calls.shutdownNow();
        if (server != null) server.close();
    }

    @Test
    void anAnswerWhoseBodyNeverComesEndsAtTheRequestsTimeoutAndItsConnectionIsClosed() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        server = StalledPeer.start(closed);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/x"))
                .timeout(Duration.ofSeconds(1))
                .build();

        long started = System.nanoTime();
        Future<HttpResponse<String>> call =
                calls.submit(() -> HttpCalls.send(client, request, HttpResponse.BodyHandlers.ofString()));
        // client.send itself waits here for good: its timeout ended with the headers.
        assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(HttpTimeoutException.class)
                .hasMessage("no whole answer to GET " + request.uri() + " within 1000 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(closed.await(10, TimeUnit.SECONDS))
                .as("the exchange cancelled")
                .isTrue();
    }

    @Test
    void aWholeAnswerIsReturnedAndAFailureKeepsItsType() throws Exception {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            try (Socket socket = server.accept()) {
                socket.getInputStream().read(new byte[8192]);
                socket.getOutputStream()
                        .write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                socket.getInputStream().read();
            } catch (IOException e) {
                // the client went away
            }
        });
        HttpRequest ok = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"))
                .timeout(Duration.ofSeconds(5))
                .build();
        assertThat(HttpCalls.send(client, ok, HttpResponse.BodyHandlers.ofString())
                        .body())
                .isEqualTo("ok");

        HttpRequest refused = HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/"))
                .timeout(Duration.ofSeconds(5))
                .build();
        assertThatThrownBy(() -> HttpCalls.send(client, refused, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
        assertThatThrownBy(() -> HttpCalls.send(
                        client,
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no timeout");
    }

    /** Answers every request with the headers of a body it never sends; {@code closed} counts down when the client lets go. */
    static final class StalledPeer {
        private StalledPeer() {}

        static ServerSocket start(CountDownLatch closed) throws IOException {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        Thread.ofPlatform().daemon().start(() -> stall(socket, closed));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            return server;
        }

        private static void stall(Socket socket, CountDownLatch closed) {
            try (socket) {
                socket.getInputStream().read(new byte[8192]);
                socket.getOutputStream()
                        .write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                                .getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                while (socket.getInputStream().read() >= 0) {
                    // nothing more is sent: until the client closes the connection
                }
            } catch (IOException e) {
                // reset by the client
            }
            closed.countDown();
        }
    }
}
