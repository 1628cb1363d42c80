package io.lahar.streams.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The size bound of a posted manifest: a command carries it in one Kafka record, and the object's
 * state holds it at least once in a record of at most 900 KiB, so a larger manifest can never be
 * admitted. Checked on the body as sent and again on the manifest as JSON (YAML's aliases expanded),
 * answered 413 with both sizes before anything is sent.
 */
@ApplicationScoped
public class BodyLimit {

    /** One state record's bound (the streams-app's StateSize.MAX_BYTES). */
    static final int DEFAULT_MAX_BYTES = 900 * 1024;

    @ConfigProperty(name = "lahar.api.max-body-bytes", defaultValue = "" + DEFAULT_MAX_BYTES)
    int maxBytes;

    /** Null when the body may go on; 413 with the sizes when it is over the limit. */
    Response refuseBody(String body) {
        return refuse("the request body", body);
    }

    /** Null when the manifest as JSON may go on; 413 with the sizes when it is over the limit. */
    Response refuseManifest(String json) {
        return refuse("the manifest as JSON (YAML aliases expanded)", json);
    }

    private Response refuse(String what, String text) {
        // A cheap bound first: a string of n chars is at most 3n bytes of UTF-8.
        if (text == null || (long) text.length() * 3 <= maxBytes) {
            return null;
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        return bytes <= maxBytes
                ? null
                : tooLarge(what + " is " + bytes + " bytes, over the limit of " + maxBytes
                        + " bytes (lahar.api.max-body-bytes): an object's state must fit in one record");
    }

    static Response tooLarge(String why) {
        return Response.status(Response.Status.REQUEST_ENTITY_TOO_LARGE)
                .entity(new ApiError("request entity too large", List.of(new ApiError.Reason("", why))))
                .build();
    }
}
