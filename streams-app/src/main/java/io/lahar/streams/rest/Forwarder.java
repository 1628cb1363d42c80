package io.lahar.streams.rest;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.Manifests;
import io.lahar.schema.HttpCalls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Reads served by another instance: a key whose partition another instance owns is asked there,
 * and the list asks every other instance for its local part. Only reads are forwarded: a command
 * goes to Kafka from any instance.
 */
@ApplicationScoped
public class Forwarder {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The instances of one deployment share the API token: the other one wants it as a client would. */
    @Inject
    ApiToken token;

    /** GET {@code pathAndQuery} on {@code hostPort}; an unreachable instance is a 503, so the client retries. */
    public Response get(String hostPort, String pathAndQuery) {
        try {
            HttpResponse<String> response = fetch(hostPort, pathAndQuery);
            return Response.status(response.statusCode())
                    .entity(response.body())
                    .type(response.headers().firstValue("Content-Type").orElse("application/json"))
                    .build();
        } catch (IOException e) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                    .header("Retry-After", "1")
                    .entity(ApiError.of("instance " + hostPort + " unreachable: " + e.getMessage()))
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                    .entity(ApiError.of("interrupted"))
                    .build();
        }
    }

    /**
     * The rows of a list that the other instances hold, each asked for its local part
     * ({@code path?local=true}); one that does not answer 200 makes the whole list unavailable,
     * since a list missing a partition would look complete.
     *
     * @throws StoreQueries.Unavailable naming the instance that did not answer
     */
    public <R> List<R> rowsOf(Collection<String> others, String path, TypeReference<List<R>> type)
            throws IOException, InterruptedException {
        List<R> rows = new ArrayList<>();
        for (String other : others) {
            HttpResponse<String> answer = fetch(other, path + "?local=true");
            if (answer.statusCode() != 200) {
                throw new StoreQueries.Unavailable("instance " + other + " answered " + answer.statusCode());
            }
            rows.addAll(Manifests.jsonMapper().readValue(answer.body(), type));
        }
        return rows;
    }

    /** The raw answer of another instance, whole within the request's timeout ({@link HttpCalls}). */
    public HttpResponse<String> fetch(String hostPort, String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + hostPort + pathAndQuery))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json")
                .header("Authorization", token.header())
                .GET()
                .build();
        return HttpCalls.send(client, request, HttpResponse.BodyHandlers.ofString());
    }
}
