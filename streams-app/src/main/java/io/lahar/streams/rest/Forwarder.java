package io.lahar.streams.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads served by another instance: a key whose partition another instance owns is asked there,
 * and the list asks every other instance for its local part. Only reads are forwarded: a command
 * goes to Kafka from any instance.
 */
@ApplicationScoped
public class Forwarder {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** GET {@code pathAndQuery} on {@code hostPort}; an unreachable instance is a 503, so the client retries. */
    public Response get(String hostPort, String pathAndQuery) {
        try {
            HttpResponse<String> response = fetch(hostPort, pathAndQuery);
            return Response.status(response.statusCode()).entity(response.body())
                    .type(response.headers().firstValue("Content-Type").orElse("application/json")).build();
        } catch (IOException e) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).header("Retry-After", "1")
                    .entity(ApiError.of("instance " + hostPort + " unreachable: " + e.getMessage())).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).entity(ApiError.of("interrupted")).build();
        }
    }

    /** The raw answer of another instance, for merging lists. */
    public HttpResponse<String> fetch(String hostPort, String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + hostPort + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).header("Accept", "application/json").GET().build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
