package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A watch of the store narrowed to what {@link Selectors} select, with the apiserver's semantics
 * for objects that move in or out of the selection: an object that starts matching arrives as
 * ADDED, one that stops matching leaves as DELETED, and events about objects never selected are
 * not sent. It wraps the store's own watch listener and filters what it sends.
 */
final class SelectingWatch extends WebSocketListener {

    private final WebSocketListener store;
    private final Selectors selectors;
    /** Keys (namespace/name) of the objects this watcher currently sees. */
    private final Set<String> selected = ConcurrentHashMap.newKeySet();

    private volatile Filtering socket;

    SelectingWatch(WebSocketListener store, Selectors selectors) {
        this.store = store;
        this.selectors = selectors;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
        store.onBeforeAccept(wrap(webSocket), response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        store.onOpen(wrap(webSocket), response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
        store.onMessage(wrap(webSocket), text);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
        store.onMessage(wrap(webSocket), bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        store.onClosing(wrap(webSocket), code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        store.onClosed(wrap(webSocket), code, reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
        store.onFailure(wrap(webSocket), error, response);
    }

    private WebSocket wrap(WebSocket webSocket) {
        Filtering current = socket;
        if (current == null || current.delegate != webSocket) {
            current = new Filtering(webSocket);
            socket = current;
        }
        return current;
    }

    /** What this watcher is sent for one event of the store's, or null for nothing. */
    String select(String event) {
        JsonNode node;
        try {
            node = CrudStore.parse(event);
        } catch (IllegalArgumentException e) {
            return event;
        }
        String type = node.path("type").asText();
        JsonNode object = node.path("object");
        if (!object.isObject() || !(type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED"))) {
            return event; // ERROR, BOOKMARK: not about one object
        }
        String key = object.path("metadata").path("namespace").asText("") + "/"
                + object.path("metadata").path("name").asText("");
        if (type.equals("DELETED")) {
            // One it saw, or one deleted since the version it watches from, which it saw in a list.
            return selected.remove(key) || selectors.matches(object) ? event : null;
        }
        if (selectors.matches(object)) {
            boolean known = !selected.add(key);
            return withType(event, node, known ? "MODIFIED" : "ADDED");
        }
        return selected.remove(key) ? withType(event, node, "DELETED") : null;
    }

    /** {@code event} as {@code type}: as it is when that is its type already (most are), else written again. */
    private static String withType(String event, JsonNode node, String type) {
        if (node.path("type").asText().equals(type)) {
            return event;
        }
        return ((ObjectNode) node).put("type", type).toString();
    }

    private final class Filtering implements WebSocket {
        private final WebSocket delegate;

        Filtering(WebSocket delegate) {
            this.delegate = delegate;
        }

        @Override
        public RecordedRequest request() {
            return delegate.request();
        }

        @Override
        public boolean send(String text) {
            String selectedEvent = select(text);
            return selectedEvent == null || delegate.send(selectedEvent);
        }

        @Override
        public boolean send(byte[] bytes) {
            return delegate.send(bytes);
        }

        @Override
        public boolean close(int code, String reason) {
            return delegate.close(code, reason);
        }
    }
}
