package io.lahar.console.api;

import io.lahar.schema.HttpCalls;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The streams-app's REST API, for the actions a console user takes on a job (abort, resume,
 * restart, delete), sent with the API token. Without a token (none configured, or its file
 * missing or empty) the console is read-only and sends nothing. A token file is read at every
 * action, so a rotated token is used without a restart.
 */
public final class StreamsApi {

    /** The streams-app's answer, passed on to the browser as it came. */
    public record Answer(int status, String body) {}

    private final URI base;
    private final Optional<String> token;
    private final Optional<Path> tokenFile;
    private final Duration timeout;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public StreamsApi(URI base, Optional<String> token, Optional<Path> tokenFile, Duration timeout) {
        this.base = base;
        this.token = token.map(String::strip).filter(t -> !t.isEmpty());
        this.tokenFile = tokenFile;
        this.timeout = timeout;
    }

    /** Whether no token is at hand, so actions are disabled. */
    public boolean readOnly() {
        return currentToken().isEmpty();
    }

    public URI base() {
        return base;
    }

    Answer act(String namespace, String name, String action) throws IOException, InterruptedException {
        return send("POST", "/api/v1/jobs/" + enc(namespace) + "/" + enc(name) + "/actions/" + enc(action));
    }

    Answer delete(String namespace, String name) throws IOException, InterruptedException {
        return send("DELETE", "/api/v1/jobs/" + enc(namespace) + "/" + enc(name));
    }

    private Answer send(String method, String path) throws IOException, InterruptedException {
        String bearer = currentToken().orElseThrow(() -> new IllegalStateException("the console is read-only"));
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + bearer)
                .header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response = HttpCalls.send(http, request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private Optional<String> currentToken() {
        if (token.isPresent()) {
            return token;
        }
        if (tokenFile.isEmpty() || !Files.isReadable(tokenFile.get())) {
            return Optional.empty();
        }
        try {
            String t = Files.readString(tokenFile.get()).strip();
            return t.isEmpty() ? Optional.empty() : Optional.of(t);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
