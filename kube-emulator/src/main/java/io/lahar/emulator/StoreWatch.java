package io.lahar.emulator;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One watch of the store ({@code ?watch=true}), kept by {@link IndexedCrudDispatcher} instead of
 * fabric8's. It joins the store's watchers when its connection opens, in the same step (under the
 * store's lock) as it is handed every object it selects as ADDED, so no change falls between the
 * two; every change after that is handed to it under the store's write lock, in the order written,
 * and sent by a sender thread of its own, so a slow connection holds up no write. A connection
 * that ends or fails leaves the watchers and drops what it had not sent yet; nothing a watch does
 * fails a write or keeps another watcher from hearing of it. (fabric8's watch shut its sender down
 * before it left the watchers: a change written in between failed halfway through telling them,
 * so the watchers after it never heard of it and the request failed after the change was stored.)
 */
final class StoreWatch extends WebSocketListener implements StoreWatchers.Watcher {

    private static final Logger LOG = Logger.getLogger(StoreWatch.class.getName());
    private static final String NAME_SELECTOR = "fieldSelector=metadata.name=";

    /**
     * Events a watcher may fall behind by before it is dropped, as kube-apiserver drops a watcher
     * that does not keep up; its client watches again and is handed every object anew.
     */
    static final int MAX_BEHIND = 10_000;

    /** Queued when the watch ends: the sender stops at it (compared by identity, never sent). */
    private static final StoreEvent END = StoreEvent.written("end");
    /** Queued after a watch's last event: the sender closes the connection at it. */
    private static final StoreEvent CLOSE = StoreEvent.written("close");

    private final StoreQuery query;
    /** The resource version the client watches from (0: any, it is handed what exists). */
    private final long since;

    private final StoreWatchers watchers;

    private final LinkedBlockingQueue<StoreEvent> outgoing = new LinkedBlockingQueue<>();
    private volatile WebSocket socket;
    private boolean ended;
    /** What a client's label or field selectors let through (null: everything), applied by the sender. */
    private volatile SelectingWatch selection;

    StoreWatch(StoreQuery query, long since, StoreWatchers watchers) {
        this.query = query;
        this.since = since;
        this.watchers = watchers;
    }

    /**
     * The watch a request asks for: {@code key} (its path's kind, namespace and labels) narrowed to
     * the one name a {@code metadata.name} field selector gives, from its {@code resourceVersion}.
     */
    static StoreWatch of(String path, AttributeSet key, StoreWatchers watchers) {
        AttributeSet query = key;
        long since = 0;
        int q = path.indexOf('?');
        for (String pair : q < 0 ? new String[0] : path.substring(q + 1).split("&")) {
            String decoded = URLDecoder.decode(pair, StandardCharsets.UTF_8);
            if (decoded.startsWith(NAME_SELECTOR)) {
                query = query.add(
                        new Attribute(KubernetesAttributesExtractor.NAME, decoded.substring(NAME_SELECTOR.length())));
            } else if (decoded.startsWith("resourceVersion=")) {
                try {
                    since = Long.parseLong(decoded.substring("resourceVersion=".length()));
                } catch (NumberFormatException notOurs) {
                    since = 1; // not a version this store gave out: older than any it knows
                }
            }
        }
        return new StoreWatch(StoreQuery.of(query), since, watchers);
    }

    @Override
    public long since() {
        return since;
    }

    /** Tells the client 410 Gone (it watches from a version the store can no longer follow on from) and closes. */
    @Override
    public synchronized void expire(String message) {
        outgoing.add(StoreEvent.written(
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                        + "\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,\"message\":\""
                        + message + "\"}}"));
        outgoing.add(CLOSE);
        ended = true;
    }

    @Override
    public StoreQuery query() {
        return query;
    }

    /**
     * This watch narrowed to what {@code selectors} select, decided by its sender from each
     * event's tree; set before its connection opens.
     */
    StoreWatch selecting(Selectors selectors) {
        selection = new SelectingWatch(selectors);
        return this;
    }

    /** Queues {@code event}; a watch that ended ignores it. */
    @Override
    public synchronized void tell(StoreEvent event) {
        if (ended) {
            return;
        }
        if (outgoing.size() >= MAX_BEHIND) {
            LOG.log(Level.WARNING, "a watch of " + query + " fell " + MAX_BEHIND + " events behind and is closed");
            end();
            close(socket, 1008, "too far behind: watch again");
            return;
        }
        outgoing.add(event);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        socket = webSocket;
        Thread.ofVirtual().name("lahar-emulator-watch").start(this::send);
        watchers.opened(this);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        end();
        close(webSocket, code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        end();
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
        end();
        close(webSocket, 1000, String.valueOf(error.getMessage()));
    }

    private synchronized void end() {
        if (ended) {
            return;
        }
        ended = true;
        watchers.ended(this);
        outgoing.clear();
        outgoing.add(END);
    }

    /** The sender: every queued event, in order, until the watch ends or its connection refuses one. */
    private void send() {
        try {
            SelectingWatch selecting = selection;
            for (StoreEvent event = outgoing.take(); event != END; event = outgoing.take()) {
                if (event == CLOSE) {
                    close(socket, 1000, "resource version expired");
                    return;
                }
                StoreEvent sent = selecting == null ? event : selecting.select(event);
                if (sent != null && !socket.send(sent.envelope())) {
                    end();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a watch of " + query + " failed to send and is closed: " + e);
            end();
            close(socket, 1011, "failed to send");
        }
    }

    private static void close(WebSocket webSocket, int code, String reason) {
        if (webSocket == null) {
            return;
        }
        try {
            webSocket.close(code, reason);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "closing a watch: " + e);
        }
    }
}
