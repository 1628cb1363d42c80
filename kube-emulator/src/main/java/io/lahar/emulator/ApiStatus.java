package io.lahar.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;

/**
 * {@code meta/v1 Status} responses shaped as a real apiserver shapes them, so fabric8's
 * {@code KubernetesClientException} and kubectl's error printer read the code, reason and message.
 */
final class ApiStatus {

    private ApiStatus() {}

    /** A Success for 200 and for 201: the same text every time, written once. */
    private static final String SUCCESS_200 = successBody(200);

    private static final String SUCCESS_201 = successBody(201);

    static MockResponse success(int code) {
        String body = code == 200 ? SUCCESS_200 : code == 201 ? SUCCESS_201 : successBody(code);
        return json(code, body);
    }

    private static String successBody(int code) {
        return base().put("status", "Success").put("code", code).toString();
    }

    static MockResponse notFound(String resource, String name) {
        return failure(404, "NotFound", resource + " \"" + name + "\" not found", resource, name, null);
    }

    static MockResponse conflict(String resource, String name, String why) {
        return failure(
                409,
                "Conflict",
                "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + why,
                resource,
                name,
                null);
    }

    static MockResponse badRequest(String message) {
        return failure(400, "BadRequest", message, null, null, null);
    }

    /** 422 naming the invalid field, as field validation reports it. */
    static MockResponse invalid(String kind, String name, String field, String why) {
        return failure(422, "Invalid", kind + " \"" + name + "\" is invalid: " + field + ": " + why, kind, name, field);
    }

    static MockResponse failure(int code, String reason, String message, String kind, String name, String field) {
        ObjectNode body = base().put("status", "Failure")
                .put("message", message)
                .put("reason", reason)
                .put("code", code);
        if (kind != null || name != null) {
            ObjectNode details = body.putObject("details");
            if (name != null) {
                details.put("name", name);
            }
            if (kind != null) {
                details.put("kind", kind);
            }
            if (field != null) {
                details.putArray("causes")
                        .addObject()
                        .put("reason", "FieldValueInvalid")
                        .put("field", field)
                        .put("message", message);
            }
        }
        return json(code, body.toString());
    }

    static MockResponse json(int code, String body) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody(body);
    }

    private static ObjectNode base() {
        ObjectNode node = Serialization.jsonMapper()
                .createObjectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1");
        node.putObject("metadata");
        return node;
    }
}
