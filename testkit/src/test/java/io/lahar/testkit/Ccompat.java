package io.lahar.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A few calls of the Confluent Schema Registry API, as a Confluent-format client makes them. */
final class Ccompat {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final String baseUrl;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Ccompat(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** An HTTP answer with its status and parsed JSON body. */
    record Answer(int status, JsonNode body) {}

    Answer register(String subject, String avroSchema) {
        String body = JSON.createObjectNode().put("schema", avroSchema).toString();
        return send("POST", "/subjects/" + subject + "/versions", body);
    }

    Answer get(String path) {
        return send("GET", path, null);
    }

    Answer send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", CONTENT_TYPE + ", application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", CONTENT_TYPE).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
            return new Answer(response.statusCode(), json);
        } catch (IOException e) {
            throw new AssertionError(method + " " + baseUrl + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
