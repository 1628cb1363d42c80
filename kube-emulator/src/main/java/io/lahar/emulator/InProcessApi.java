package io.lahar.emulator;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * The emulated API as code in this JVM (the {@link SimulatedKubelet}) reaches it, with no
 * connection. A request is handed, with the cluster's token, to the dispatcher a client's request
 * is handed to, so it is answered as a client's would be: resource versions and 409 conflicts,
 * the journal, admission webhooks, and every watcher told of the change. A watch joins the store's
 * watchers as a client's watch does: handed what exists, then every change in the order written.
 */
final class InProcessApi {

    private final Dispatcher front;
    private final IndexedCrudDispatcher store;
    private final String authorization;

    /**
     * @param front the dispatcher of the API's web server ({@link ClusterDispatcher})
     * @param store the store behind it, whose watchers a watch joins
     */
    InProcessApi(Dispatcher front, IndexedCrudDispatcher store, BearerToken token) {
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
     * Watches what {@code path} (a collection: {@code /api/v1/pods}) names: {@code events} is handed
     * (type, object JSON) for every object that exists as ADDED, then for every change. It is called
     * under the store's write lock, by the writer, so it must only hand the event on. Closing the
     * returned watch ends it.
     */
    AutoCloseable watch(String path, BiConsumer<String, String> events) {
        Local watch = new Local(store.getKey(path), events);
        store.watchers().opened(watch);
        return () -> store.watchers().ended(watch);
    }

    /** A watch from no particular version: it is handed what exists, so it never expires. */
    private record Local(AttributeSet query, BiConsumer<String, String> events) implements StoreWatchers.Watcher {

        @Override
        public long since() {
            return 0;
        }

        @Override
        public void tell(String type, String json) {
            events.accept(type, json);
        }

        @Override
        public void expire(String message) {
            throw new IllegalStateException("a watch from no version cannot expire: " + message);
        }
    }
}
