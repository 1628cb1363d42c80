package io.lahar.scheduler.loop;

import java.time.Duration;

/**
 * The pause before trying again after a failure, shared by the loop's supervisor and the leader
 * election: it doubles from {@code first} up to {@code max} while failures repeat, starts from
 * {@code first} again after an attempt that lasted {@code steady} (the peer was back for good, so
 * it is used at once; one that keeps failing is not hammered), and {@link #stop()} ends it at once.
 */
final class Backoff {

    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofSeconds(30);
    static final Duration STEADY = Duration.ofSeconds(60);

    private final Duration first;
    private final Duration max;
    private final Duration steady;
    private Duration next;
    private volatile boolean stopped;

    Backoff(Duration first, Duration max, Duration steady) {
        this.first = first;
        this.max = max;
        this.steady = steady;
        this.next = first;
    }

    /** The pause {@link #pause()} will wait after an attempt that lasted {@code lasted}. */
    synchronized Duration next(Duration lasted) {
        if (lasted.compareTo(steady) >= 0) next = first;
        return next;
    }

    /** Waits out the pause and doubles the next one; false when stopped before or meanwhile. */
    synchronized boolean pause() {
        long deadline = System.nanoTime() + next.toNanos();
        try {
            for (long left = next.toNanos(); !stopped && left > 0; left = deadline - System.nanoTime()) {
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        next = next.multipliedBy(2).compareTo(max) > 0 ? max : next.multipliedBy(2);
        return !stopped;
    }

    /** Ends a pause under way and every later one. */
    synchronized void stop() {
        stopped = true;
        notifyAll();
    }

    boolean stopped() {
        return stopped;
    }
}
