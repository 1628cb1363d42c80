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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A peer that sends the headers of its answer and then nothing: the call ends at the request's
 * timeout, as silence before the headers does, and lets go of the connection.
 */
class HttpCallsTest {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private ServerSocket server;

    @AfterEach
    void close() throws IOException {
        if (server != null) server.close();
    }

    @Test
    void anAnswerWhoseBodyNeverComesEndsAtTheRequestsTimeoutAndItsConnectionIsClosed() throws Exception {
        try (StalledHttpPeer peer = StalledHttpPeer.start()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(peer.url() + "/x"))
                    .timeout(Duration.ofSeconds(1))
                    .build();

            StalledHttpPeer.Ended call = peer.call(
                    () -> HttpCalls.send(client, request, HttpResponse.BodyHandlers.ofString()),
                    Duration.ofSeconds(30));
            // client.send itself waits here for good: its timeout ended with the headers.
            assertThat(call.failure())
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessage("no whole answer to GET " + request.uri() + " within 1000 ms");
            assertThat(call.after()).isLessThan(Duration.ofSeconds(10));
            assertThat(peer.awaitClosedByClient(1, Duration.ofSeconds(10)))
                    .as("the exchange cancelled")
                    .isTrue();
        }
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
}
