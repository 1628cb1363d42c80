package io.lahar.console.sse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.console.view.ConsoleViews;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * {@code GET /api/events}: server-sent events telling browsers what changed. Every
 * {@code interval} the changes the feed made to the views (kind → keys, {@code *} for all) go to
 * every client as one {@code change} event; pages reload what they show when it is among them.
 * A comment line every {@code heartbeat} finds connections the browser left. Each client has a
 * bounded queue ({@link SseClient}): a browser that does not read is dropped and logged, never
 * waited for, so it cannot hold back the feed or the other clients.
 */
public final class EventStream implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EventStream.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConsoleViews views;
    private final int clientBuffer;
    private final int writeQueueBytes;
    private final Map<String, SseClient> clients = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Counter dropped;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "console-events");
        t.setDaemon(true);
        return t;
    });

    public EventStream(ConsoleViews views, int clientBuffer, int writeQueueBytes, MeterRegistry metrics) {
        this.views = views;
        this.clientBuffer = clientBuffer;
        this.writeQueueBytes = writeQueueBytes;
        this.dropped = Counter.builder("lahar.console.sse.dropped")
                .description("Browsers dropped because they did not read the change stream fast enough")
                .register(metrics);
        metrics.gaugeMapSize("lahar.console.sse.clients", java.util.List.of(), clients);
    }

    public void start(long intervalMillis, long heartbeatMillis) {
        timer.scheduleWithFixedDelay(this::publish, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(
                () -> broadcast(": ping\n\n"), heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    }

    /** The route's handler: keeps the response open as an event stream. */
    public void subscribe(RoutingContext rc) {
        HttpServerResponse response = rc.response();
        response.setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .putHeader("X-Accel-Buffering", "no");
        response.setWriteQueueMaxSize(writeQueueBytes);
        Context context = Vertx.currentContext();
        String id = "sse-" + ids.incrementAndGet() + " (" + rc.request().remoteAddress() + ")";
        SseClient client = new SseClient(id, new VertxConnection(context, response), clientBuffer);
        clients.put(id, client);
        response.closeHandler(v -> {
            client.closed();
            clients.remove(id);
        });
        response.write("retry: 2000\n\nevent: hello\ndata: {}\n\n");
    }

    private void publish() {
        try {
            Map<String, Set<String>> changes = views.drainChanges();
            if (!changes.isEmpty()) {
                broadcast("event: change\ndata: " + JSON.writeValueAsString(changes) + "\n\n");
            }
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.error("could not publish the console's changes", e);
        }
    }

    private void broadcast(String event) {
        for (SseClient client : clients.values()) {
            switch (client.offer(event)) {
                case QUEUED -> {}
                case DROPPED -> {
                    clients.remove(client.name());
                    dropped.increment();
                    LOG.warnf(
                            "dropped the event stream of %s: %d events waited for it to read",
                            client.name(), clientBuffer);
                }
                case GONE -> clients.remove(client.name());
            }
        }
    }

    int clients() {
        return clients.size();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        clients.values().forEach(SseClient::closed);
    }

    /** A Vert.x response as an {@link SseClient.Connection}. */
    private record VertxConnection(Context context, HttpServerResponse response) implements SseClient.Connection {
        @Override
        public void run(Runnable task) {
            context.runOnContext(v -> task.run());
        }

        @Override
        public boolean full() {
            return response.writeQueueFull();
        }

        @Override
        public void write(String text) {
            if (!response.closed()) {
                response.write(text);
            }
        }

        @Override
        public void onDrain(Runnable then) {
            response.drainHandler(v -> then.run());
        }

        @Override
        public void close() {
            if (!response.closed()) {
                response.close();
            }
        }
    }
}
