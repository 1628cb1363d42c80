package io.lahar.console.sse;

import java.util.ArrayDeque;

/**
 * One browser subscribed to the change stream, with a bounded queue of events not yet handed to
 * its connection. {@link #offer} never blocks the caller: when the connection has not taken the
 * events fast enough to keep the queue under {@code capacity}, the client is dropped (the
 * connection closed; the browser's EventSource reconnects and reloads what it shows).
 */
final class SseClient {

    /** The client's connection, as Vert.x gives it; every call but {@link #run} on its own thread. */
    interface Connection {
        /** Runs {@code task} on the connection's thread. */
        void run(Runnable task);

        /** Whether the connection's own write queue is full (the browser is not reading). */
        boolean full();

        void write(String text);

        /** Calls {@code then} once when the write queue has room again. */
        void onDrain(Runnable then);

        void close();
    }

    private final String name;
    private final Connection connection;
    private final int capacity;
    private final ArrayDeque<String> pending = new ArrayDeque<>();
    private boolean dropped;
    private boolean waitingForDrain;

    SseClient(String name, Connection connection, int capacity) {
        this.name = name;
        this.connection = connection;
        this.capacity = capacity;
    }

    String name() {
        return name;
    }

    /** What became of an offered event. */
    enum Offer {
        QUEUED,
        /** The queue was full: the client is dropped now, by this offer. */
        DROPPED,
        /** The client was dropped or closed before. */
        GONE
    }

    /** Queues an event, or drops the client when its queue is full; never waits. */
    Offer offer(String event) {
        synchronized (this) {
            if (dropped) {
                return Offer.GONE;
            }
            if (pending.size() >= capacity) {
                dropped = true;
                pending.clear();
                connection.run(connection::close);
                return Offer.DROPPED;
            }
            pending.addLast(event);
        }
        connection.run(this::drain);
        return Offer.QUEUED;
    }

    synchronized boolean dropped() {
        return dropped;
    }

    synchronized int pending() {
        return pending.size();
    }

    /** Writes what the connection takes; on its thread. */
    private void drain() {
        while (true) {
            String next;
            synchronized (this) {
                if (dropped || pending.isEmpty()) {
                    return;
                }
                if (connection.full()) {
                    if (!waitingForDrain) {
                        waitingForDrain = true;
                        connection.onDrain(() -> {
                            synchronized (this) {
                                waitingForDrain = false;
                            }
                            drain();
                        });
                    }
                    return;
                }
                next = pending.removeFirst();
            }
            connection.write(next);
        }
    }

    /** Marks the client gone (its connection closed by the browser). */
    synchronized void closed() {
        dropped = true;
        pending.clear();
    }
}
