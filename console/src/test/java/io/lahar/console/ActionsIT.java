package io.lahar.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Actions go to the streams-app's REST API with the token read from the token file (read again at
 * every action), and its answer comes back as it was. The streams-app is a stand-in here that
 * records what it was sent.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@TestProfile(ActionsIT.WithToken.class)
class ActionsIT {

    static final List<String> RECEIVED = new CopyOnWriteArrayList<>();
    static final HttpServer STREAMS_APP = streamsApp();
    static final Path TOKEN = tokenFile();

    /** The console pointed at the stand-in, with a token file. */
    public static class WithToken implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "lahar.console.api-url",
                    "http://127.0.0.1:" + STREAMS_APP.getAddress().getPort(),
                    "lahar.console.api-token-file",
                    TOKEN.toString());
        }
    }

    @TestHTTPResource("/")
    URI root;

    private final HttpClient http = HttpClient.newHttpClient();

    private static HttpServer streamsApp() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                RECEIVED.add(exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getRawPath() + " "
                        + exchange.getRequestHeaders().getFirst("Authorization"));
                boolean resume = exchange.getRequestURI().getPath().endsWith("ResumeJob");
                byte[] body = (resume
                                ? "{\"error\":\"ResumeJob rejected\",\"violations\":[{\"path\":\"action\",\"message\":\"the job is not aborted\"}]}"
                                : "{\"requestId\":\"r1\",\"accepted\":true}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(resume ? 422 : 200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("lahar-console-token", ".txt");
            Files.writeString(file, "first-token\n");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() {
        STREAMS_APP.stop(0);
    }

    private HttpResponse<String> send(String method, String path, boolean marker) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(root.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (marker) {
            b.header("X-Lahar-Console", "1");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void actionsGoToTheStreamsAppWithTheTokenOfTheFile() throws Exception {
        assertThat(send("GET", "api/summary", false).body()).contains("\"readOnly\":false");

        HttpResponse<String> abort = send("POST", "api/jobs/ns-a/tf%20job/actions/AbortJob", true);
        assertThat(abort.statusCode()).isEqualTo(200);
        assertThat(abort.body()).contains("\"accepted\":true");
        assertThat(RECEIVED).containsExactly("POST /api/v1/jobs/ns-a/tf%20job/actions/AbortJob Bearer first-token");

        HttpResponse<String> resume = send("POST", "api/jobs/ns-a/j/actions/ResumeJob", true);
        assertThat(resume.statusCode())
                .as("the streams-app's refusal, passed on")
                .isEqualTo(422);
        assertThat(resume.body()).contains("the job is not aborted");

        Files.writeString(TOKEN, "rotated-token");
        assertThat(send("DELETE", "api/jobs/ns-a/j", true).statusCode()).isEqualTo(200);
        assertThat(RECEIVED).last().isEqualTo("DELETE /api/v1/jobs/ns-a/j Bearer rotated-token");

        int before = RECEIVED.size();
        assertThat(send("POST", "api/jobs/ns-a/j/actions/AbortJob", false).statusCode())
                .as("without the console's header (another site's page)")
                .isEqualTo(403);
        assertThat(send("POST", "api/jobs/ns-a/j/actions/TerminateJob", true).statusCode())
                .isEqualTo(422);
        assertThat(RECEIVED).hasSize(before);

        Files.writeString(TOKEN, "");
        assertThat(send("GET", "api/summary", false).body())
                .as("an empty token file: read-only")
                .contains("\"readOnly\":true");
    }
}
