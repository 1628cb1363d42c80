package io.lahar.bridge.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * Where the input loop's records are reconciled: each in a lane named for the object it concerns
 * (a pod, a job's plugin objects, a pod group, a job's status), the lanes side by side and each lane
 * in the order its work was handed in, so one pod's create, bind and delete reach the cluster in
 * the order they were read while other pods' calls proceed meanwhile. At most {@code capacity}
 * records are in the lanes at once (the loop hands in no more while they are), and as many retries of
 * waiting work. A record's outcome comes back to the loop through {@link #drain}, which is where
 * its offset may be committed: a record still in a lane holds its partition's commit.
 */
final class CallLanes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CallLanes.class);

    /** What became of the record at {@code offset} of {@code partition}. */
    record Done(TopicPartition partition, long offset, BridgeConsumer.Verdict verdict) {}

    private final int capacity;
    private final ExecutorService calls;
    /** lane → the last work handed to it, which the next one waits for. */
    private final Map<String, CompletableFuture<Void>> tails = new HashMap<>();

    private final LinkedBlockingQueue<Done> done = new LinkedBlockingQueue<>();
    private final AtomicInteger records = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();

    CallLanes(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        // A call mostly waits for the API's answer: a virtual thread per call costs little while it does.
        this.calls = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("lahar-bridge-call-", 0).factory());
    }

    /** Whether the lanes hold as many records as they may: the loop reads no more until some are done. */
    boolean full() {
        return records.get() >= capacity;
    }

    int inFlight() {
        return records.get();
    }

    /** Hands the record at {@code offset} to {@code lane}; its verdict comes back through {@link #drain}. */
    void submit(String lane, TopicPartition partition, long offset, Supplier<BridgeConsumer.Verdict> work) {
        submit(lane, null, partition, offset, work);
    }

    /**
     * Hands the record at {@code offset} to {@code lane}, to run only once the work handed to lane
     * {@code after} so far has run too (however it ended), as a pod is made only after its job's
     * plugin objects; {@code after} null: its own lane only.
     */
    void submit(
            String lane, String after, TopicPartition partition, long offset, Supplier<BridgeConsumer.Verdict> work) {
        records.incrementAndGet();
        enqueue(lane, after, () -> {
            BridgeConsumer.Verdict verdict = BridgeConsumer.Verdict.LATER;
            try {
                verdict = work.get();
            } catch (RuntimeException | Error e) {
                LOG.errorf(
                        e,
                        "reconciling %s@%d failed outside the reconcilers; it will be read again",
                        partition,
                        offset);
            } finally {
                done.add(new Done(partition, offset, verdict));
                records.decrementAndGet();
            }
        });
    }

    /**
     * Hands retry work to {@code lane} if nothing is queued there (a record in that lane will see to
     * the pod anyway) and fewer than {@code capacity} retries are out; returns whether it did.
     */
    boolean offer(String lane, Runnable work) {
        synchronized (this) {
            if (tails.containsKey(lane) || retries.get() >= capacity) {
                return false;
            }
            retries.incrementAndGet();
        }
        enqueue(lane, null, () -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.warnf("retrying waiting work in %s failed, will try again: %s", lane, e.getMessage());
            } finally {
                retries.decrementAndGet();
            }
        });
        return true;
    }

    private synchronized void enqueue(String lane, String after, Runnable work) {
        CompletableFuture<Void> before = before(tails.get(lane), after == null ? null : tails.get(after));
        CompletableFuture<Void> next = before == null
                ? CompletableFuture.runAsync(work, calls)
                : before.exceptionally(e -> null).thenRunAsync(work, calls);
        tails.put(lane, next);
        next.whenComplete((ignored, error) -> forget(lane, next));
    }

    /** What new work waits for: its lane's tail and the other lane's, either of them absent when idle. */
    private static CompletableFuture<Void> before(CompletableFuture<Void> tail, CompletableFuture<Void> other) {
        if (other == null) return tail;
        if (tail == null) return other;
        return CompletableFuture.allOf(tail.exceptionally(e -> null), other.exceptionally(e -> null));
    }

    private synchronized void forget(String lane, CompletableFuture<Void> finished) {
        tails.remove(lane, finished);
    }

    /** Hands every outcome that came back to {@code sink}; returns how many. */
    int drain(Consumer<Done> sink) {
        int count = 0;
        for (Done d = done.poll(); d != null; d = done.poll()) {
            sink.accept(d);
            count++;
        }
        return count;
    }

    /** Waits up to {@code timeout} for an outcome to come back, then drains like {@link #drain}. */
    int await(Duration timeout, Consumer<Done> sink) {
        try {
            Done first = done.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (first == null) {
                return 0;
            }
            sink.accept(first);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        return 1 + drain(sink);
    }

    /** Waits up to {@code timeout} for every record in the lanes to come back, draining as they do. */
    void settle(Duration timeout, Consumer<Done> sink) {
        long deadline = System.nanoTime() + timeout.toNanos();
        drain(sink);
        while (records.get() > 0
                && System.nanoTime() < deadline
                && !Thread.currentThread().isInterrupted()) {
            await(Duration.ofMillis(50), sink);
        }
        drain(sink);
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
