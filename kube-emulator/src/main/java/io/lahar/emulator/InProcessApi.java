package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The emulated API as code in this JVM (the {@link SimulatedKubelet}) reaches it, with no
 * connection. A request is handed, with the cluster's token, to the dispatcher a client's request
 * is handed to, so it is answered as a client's would be: resource versions and 409 conflicts,
 * the journal, admission webhooks, and every watcher told of the change. A watch joins the store's
 * watchers as a client's watch does: handed what exists, then every change in the order written.
 */
class InProcessApi {

    private final Dispatcher front;
    private final CrudStore store;
    private final String authorization;

    /**
     * @param front the dispatcher of the API's web server ({@link ClusterDispatcher})
     * @param store the store behind it, whose watchers a watch joins
     */
    InProcessApi(Dispatcher front, CrudStore store, BearerToken token) {
        this.front = front;
        this.store = store;
        this.authorization = "Bearer " + token.value();
    }

    /** Answers {@code method path} with the JSON {@code body} (null: none), as it answers a client. */
    MockResponse send(HttpMethod method, String path, String body) {
        Headers.Builder headers = Headers.builder().add("Authorization", authorization);
        byte[] bytes = null;
        if (body != null) {
            headers.add("Content-Type", "application/json");
            bytes = body.getBytes(StandardCharsets.UTF_8);
        }
        return front.dispatch(new RecordedRequest("HTTP/1.1", method, path, headers.build(), new Buffer(bytes)));
    }

    /**
     * Writes the status of the object at {@code path} from {@code object}, which the store keeps
     * (the caller must not change it afterwards), as a client's PUT of its {@code status}
     * subresource is written (resource versions, 409 conflicts, the journal, every watcher told).
     * No admission webhook reviews a status write and it is never a dry run, so the front has
     * nothing to add to it: the store is handed the tree, with no JSON text in between.
     */
    MockResponse writeStatus(String path, JsonNode object) {
        return store.put(path + "/status", object);
    }

    /** The object at {@code path} as the store holds it: its own tree, not to be changed; empty if there is none. */
    Optional<JsonNode> read(String path) {
        return store.read(path);
    }

    /** Watches what {@code path} names, as {@link CrudStore#watch} says: under the store's write lock. */
    AutoCloseable watch(String path, BiConsumer<String, String> events) {
        return store.watch(path, events);
    }

    /** As {@link #watch}, handed each event with its tree ({@link CrudStore#watchEvents}). */
    AutoCloseable watchEvents(String path, Consumer<StoreEvent> events) {
        return store.watchEvents(path, events);
    }
}
