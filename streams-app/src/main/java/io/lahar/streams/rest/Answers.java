package io.lahar.streams.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The answers and small helpers every resource shares, so each status means one thing across the API. */
final class Answers {

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

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** A path segment, encoded. */
    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
