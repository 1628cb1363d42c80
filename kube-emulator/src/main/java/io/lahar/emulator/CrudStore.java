package io.lahar.emulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * fabric8's in-memory CRUD store, driven with synthetic requests. Our additions (binding, merge
 * patch) read and write objects through it like any client would, so its optimistic locking,
 * resource versions and watch events apply to them too; code in this JVM watches it as one of its
 * watchers ({@link #watch}).
 */
final class CrudStore {

    private final IndexedCrudDispatcher crud;

    CrudStore(IndexedCrudDispatcher crud) {
        this.crud = crud;
    }

    /**
     * Watches what {@code path} (a collection: {@code /api/v1/pods}) names: {@code events} is handed
     * (type, object JSON) for every object that exists as ADDED, then for every change. It is called
     * under the store's write lock, by the writer, so it must be quick and must not fail. Closing the
     * returned watch ends it.
     */
    AutoCloseable watch(String path, BiConsumer<String, String> events) {
        return watchEvents(path, event -> events.accept(event.type(), event.json()));
    }

    /** As {@link #watch(String, BiConsumer)}, handed each {@link StoreEvent} with its tree, shared and not to be changed. */
    AutoCloseable watchEvents(String path, Consumer<StoreEvent> events) {
        Local watch = new Local(crud.query(path), events);
        crud.watchers().opened(watch);
        return () -> crud.watchers().ended(watch);
    }

    /** A watch in this JVM from no particular version: it is handed what exists, so it never expires. */
    private record Local(StoreQuery query, Consumer<StoreEvent> events) implements StoreWatchers.Watcher {

        @Override
        public long since() {
            return 0;
        }

        @Override
        public void tell(StoreEvent event) {
            events.accept(event);
        }

        @Override
        public void expire(String message) {
            throw new IllegalStateException("a watch from no version cannot expire: " + message);
        }
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

    /** The stored object at {@code path} (a single object's path): the store's own tree, not to be changed; empty if there is none. */
    Optional<JsonNode> read(String path) {
        return crud.read(path);
    }

    /** A copy of the stored object at {@code path} (a single object's path), the caller's to change, or empty if there is none. */
    Optional<ObjectNode> get(String path) {
        return crud.read(path).map(object -> (ObjectNode) object.deepCopy());
    }

    /**
     * Replaces the object at {@code path} (or its status, at its {@code status} path) with {@code
     * object}, which the store keeps: the caller must not change it afterwards. The store answers
     * 409 if its resourceVersion is stale.
     */
    MockResponse put(String path, JsonNode object) {
        return crud.update(path, object);
    }

    /** What the collection at {@code path} holds that {@code kept} keeps; empty where the path is not a collection's list. */
    Optional<IndexedCrudDispatcher.Selection> select(String path, Predicate<JsonNode> kept) {
        return crud.select(path, kept);
    }

    /** The list of {@code items} (objects' JSON) at {@code version}, as the store answers a collection's GET. */
    MockResponse list(List<String> items, long version) {
        return crud.list(items, version);
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
