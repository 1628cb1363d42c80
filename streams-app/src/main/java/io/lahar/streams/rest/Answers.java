package io.lahar.streams.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The answers and small helpers every resource shares, so each status means one thing across the API. */
final class Answers {

    /** The {@code sender} of every command the REST API writes. */
    static final String SENDER = "rest";

    private Answers() {}

    static Response notFound(String what) {
        return Response.status(Response.Status.NOT_FOUND)
                .entity(ApiError.of(what + " not found"))
                .build();
    }

    /** 503 with {@code Retry-After}: the condition passes (a rebalance, a restore, a broker back). */
    static Response unavailable(String why) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header("Retry-After", "1")
                .entity(ApiError.of(why))
                .build();
    }

    /** A command the producer could not write: 413 when too large for a record, else 503 (the broker may come back). */
    static Response notSent(CommandGateway.NotSent e) {
        return e.tooLarge() ? BodyLimit.tooLarge(e.getMessage()) : unavailable(e.getMessage());
    }

    /** An admitted manifest (JSON, as the engine wrote it) as a tree; null as JSON null. */
    static JsonNode readJson(String json) {
        try {
            return json == null
                    ? Manifests.jsonMapper().nullNode()
                    : Manifests.jsonMapper().readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("the admitted manifest is not JSON", e);
        }
    }

    /**
     * 201 with the admitted object and its {@code Location} ({@code /api/v1/<plural>/NS/NAME}).
     *
     * @param collection the kind's collection path, {@code /api/v1/jobflows}
     */
    static Response created(String collection, String namespace, String name, String manifestJson) {
        return Response.created(URI.create(new ObjectAddress(collection, namespace, name).path()))
                .entity(readJson(manifestJson))
                .build();
    }

    /** The command's request id: the client's when it chose one (a retried write then applies once), else a new one. */
    static String requestId(String chosen) {
        return chosen == null || chosen.isBlank() ? UUID.randomUUID().toString() : chosen;
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** A path segment, encoded. */
    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
