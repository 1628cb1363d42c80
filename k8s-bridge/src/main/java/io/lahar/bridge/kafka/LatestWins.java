package io.lahar.bridge.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.BinaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Writes of one object one at a time, the latest first (decision 049): work handed in for an
 * object while a write of it is under way waits, folded with whatever else waits for it, and goes
 * as one write when that one finishes. A status record read a hundred times while one write took
 * its time costs one more write, not a hundred. A write that fails for a passing reason (the cluster
 * unreachable) is tried again after a pause, folded before whatever came meanwhile; one that can
 * never succeed is handed to {@link Failure} with the latest record it stood for. Until an object's
 * work is written it is {@link #pending}: the input loop holds the records' offsets meanwhile.
 *
 * @param <T> the work, folded by {@code fold(earlier, later)}
 */
final class LatestWins<T> implements AutoCloseable {

    /** Writes the (folded) work for an object; throws if it could not. */
    @FunctionalInterface
    interface Writer<T> {
        void write(String key, T work);
    }

    /** What the loop does with a write that can never succeed; returns false if it could not be done now. */
    interface Failure {
        boolean failed(ConsumerRecord<String, byte[]> latest, RuntimeException error);

        /** A write failed for a passing reason and will be tried again. */
        void retrying(String key, RuntimeException error);
    }

    private static final class Slot<T> {
        T waiting;
        ConsumerRecord<String, byte[]> latest;
    }

    private final Writer<T> writer;
    private final BinaryOperator<T> fold;
    private final Failure failure;
    private final Semaphore writes;
    private final Duration pauseFirst;
    private final Duration pauseMax;
    /** object key → its work not yet written; present while a write of it is under way or waits. */
    private final Map<String, Slot<T>> slots = new HashMap<>();

    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("lahar-bridge-write-", 0).factory());
    private volatile boolean running = true;

    /** @param concurrency objects written at once: the calls of other objects wait for a turn */
    LatestWins(
            Writer<T> writer,
            BinaryOperator<T> fold,
            Failure failure,
            int concurrency,
            Duration pauseFirst,
            Duration pauseMax) {
        this.writer = writer;
        this.fold = fold;
        this.failure = failure;
        this.writes = new Semaphore(concurrency);
        this.pauseFirst = pauseFirst;
        this.pauseMax = pauseMax;
    }

    /** Hands in work for {@code key} from {@code record}; written after whatever is under way for it. */
    void offer(String key, T work, ConsumerRecord<String, byte[]> record) {
        synchronized (this) {
            Slot<T> slot = slots.get(key);
            if (slot != null) {
                slot.waiting = slot.waiting == null ? work : fold.apply(slot.waiting, work);
                slot.latest = record;
                return;
            }
            slot = new Slot<>();
            slot.waiting = work;
            slot.latest = record;
            slots.put(key, slot);
        }
        threads.execute(() -> drain(key));
    }

    /** Whether work for {@code key} is not written yet. */
    synchronized boolean pending(String key) {
        return slots.containsKey(key);
    }

    synchronized int pendingCount() {
        return slots.size();
    }

    /** Waits up to {@code timeout} for every object's work to be written. */
    synchronized void settle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!slots.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes the object's work until none waits; the slot goes when none does. */
    private void drain(String key) {
        Duration pause = pauseFirst;
        while (running) {
            Slot<T> slot;
            T work;
            ConsumerRecord<String, byte[]> latest;
            synchronized (this) {
                slot = slots.get(key);
                if (slot.waiting == null) {
                    slots.remove(key);
                    notifyAll();
                    return;
                }
                work = slot.waiting;
                latest = slot.latest;
                slot.waiting = null;
            }
            try {
                writes.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            boolean again = false;
            try {
                writer.write(key, work);
                pause = pauseFirst;
            } catch (RuntimeException e) {
                if (Transients.isTransient(e) || !failure.failed(latest, e)) {
                    putBack(slot, work);
                    failure.retrying(key, e);
                    again = true;
                }
            } finally {
                writes.release();
            }
            if (again) {
                if (!sleep(pause)) {
                    return;
                }
                pause = pause.multipliedBy(2).compareTo(pauseMax) > 0 ? pauseMax : pause.multipliedBy(2);
            }
        }
    }

    private synchronized void putBack(Slot<T> slot, T work) {
        slot.waiting = slot.waiting == null ? work : fold.apply(work, slot.waiting);
    }

    private static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops writing: work not yet written stays unwritten, and its records uncommitted. */
    @Override
    public void close() {
        running = false;
        threads.shutdownNow();
    }
}
