package io.lahar.cli.job;

import io.lahar.schema.HttpCalls;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * A small client of the streams-app's REST API. A 503 (the store is rebalancing) is retried a few
 * times with a short pause: the server asks for it, and every call here is safe to repeat.
 */
public final class LaharApi {

    /** One answer: the status and the body as text. */
    public record Answer(int status, String body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    static final int RETRIES_ON_503 = 5;
    static final String REQUEST_ID = "X-Lahar-Request-Id";

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** How long one call may take, its answer's body included. */
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final String server;
    private final String token;
    private final Duration timeout;

    public LaharApi(String server, String token) {
        this(server, token, TIMEOUT);
    }

    LaharApi(String server, String token, Duration timeout) {
        this.server = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        this.token = token;
        this.timeout = timeout;
    }

    public Answer get(String path) throws IOException, InterruptedException {
        return send(base(path).GET());
    }

    public Answer post(String path, String body, String contentType) throws IOException, InterruptedException {
        return send(write(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public Answer delete(String path) throws IOException, InterruptedException {
        return send(write(path).DELETE());
    }

    /** A write carries a request id of our choosing: a retry of the same request is applied once. */
    private HttpRequest.Builder write(String path) {
        return base(path).header(REQUEST_ID, UUID.randomUUID().toString());
    }

    /** A path segment or query value, percent-encoded. */
    public static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * {@code ?k=v&k2=v2} of the parameters that are set, in their order, each value percent-encoded;
     * empty when none is (a null value is a filter not asked for).
     */
    public static String query(Map<String, String> params) {
        StringBuilder q = new StringBuilder();
        params.forEach((k, v) -> {
            if (v != null) {
                q.append(q.isEmpty() ? "?" : "&").append(k).append('=').append(enc(v));
            }
        });
        return q.toString();
    }

    private HttpRequest.Builder base(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server + path))
                .timeout(timeout)
                .header("Accept", "application/json");
        if (token != null && !token.isBlank()) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.build();
        HttpResponse<String> response = HttpCalls.send(client, built, HttpResponse.BodyHandlers.ofString());
        for (int attempt = 1; response.statusCode() == 503 && attempt <= RETRIES_ON_503; attempt++) {
            Thread.sleep(1000L * attempt);
            response = HttpCalls.send(client, built, HttpResponse.BodyHandlers.ofString());
        }
        return new Answer(response.statusCode(), response.body());
    }
}
