package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Retries Kubernetes calls that failed for a passing reason (the API unreachable, 429, 5xx) with
 * exponential backoff. Conflicts (409) and absences (404) are answers, not failures: each caller
 * decides what they mean, so they are never retried here.
 */
public final class Retry {

    /** Sleeps between attempts; tests pass one that does not. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final int attempts;
    private final Duration first;
    private final Duration max;
    private final Sleeper sleeper;

    public Retry(int attempts, Duration first, Duration max, Sleeper sleeper) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        this.attempts = attempts;
        this.first = first;
        this.max = max;
        this.sleeper = sleeper;
    }

    public static Retry standard() {
        return new Retry(6, Duration.ofMillis(100), Duration.ofSeconds(5), d -> Thread.sleep(d.toMillis()));
    }

    public <T> T call(Supplier<T> operation) {
        Duration wait = first;
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (KubernetesClientException e) {
                if (!isTransient(e) || attempt >= attempts) {
                    throw e;
                }
            }
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KubernetesClientException("interrupted while backing off", e);
            }
            wait = wait.multipliedBy(2).compareTo(max) > 0 ? max : wait.multipliedBy(2);
        }
    }

    public void run(Runnable operation) {
        call(() -> {
            operation.run();
            return null;
        });
    }

    /** 0: no HTTP answer at all (connection refused, timeout); 429: throttled; 5xx: the server's trouble. */
    public static boolean isTransient(KubernetesClientException e) {
        int code = e.getCode();
        return code == 0 || code == 429 || code >= 500;
    }

    public static boolean isNotFound(KubernetesClientException e) {
        return e.getCode() == 404;
    }

    public static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == 409;
    }
}
