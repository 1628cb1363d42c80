package io.lahar.emulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * fabric8's in-memory CRUD store, driven with synthetic requests. Our additions (binding, merge
 * patch) read and write objects through it like any client would, so its optimistic locking,
 * resource versions and watch events apply to them too.
 */
final class CrudStore {

    private final KubernetesCrudDispatcher crud;

    CrudStore(KubernetesCrudDispatcher crud) {
        this.crud = crud;
    }

    MockResponse dispatch(RecordedRequest request) {
        return crud.dispatch(request);
    }

    MockResponse dispatch(HttpMethod method, String path, String contentType, String body) {
        Headers.Builder headers = Headers.builder();
        if (contentType != null) {
            headers.add("Content-Type", contentType);
        }
        byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        return crud.dispatch(new RecordedRequest("HTTP/1.1", method, path, headers.build(), new Buffer(bytes)));
    }

    /** The stored object at {@code path} (a single object's path), or empty if there is none. */
    Optional<ObjectNode> get(String path) {
        MockResponse response = dispatch(HttpMethod.GET, path, null, null);
        if (response.code() != 200) {
            return Optional.empty();
        }
        return Optional.of((ObjectNode) parse(bodyOf(response)));
    }

    /** Replaces the object at {@code path}; the store answers 409 if its resourceVersion is stale. */
    MockResponse put(String path, JsonNode object) {
        return dispatch(HttpMethod.PUT, path, "application/json", object.toString());
    }

    static String bodyOf(MockResponse response) {
        Buffer body = response.getBody();
        return body == null ? "" : new String(body.getBytes(), StandardCharsets.UTF_8);
    }

    static JsonNode parse(String json) {
        try {
            return Serialization.jsonMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
