package io.lahar.core.flow;

import io.lahar.core.api.FlowRetry;
import io.lahar.core.api.GoDuration;
import java.time.Duration;

/** Lahar's flow retry backoff: {@code base * 2^attempt}, never above {@code cap}; no backoff means at once. */
public final class Backoffs {

    private Backoffs() {}

    /**
     * The delay before re-creating a job for the given retry.
     *
     * @param attempt 0 for the first retry
     */
    public static long delayMillis(FlowRetry retry, int attempt) {
        if (retry == null || retry.backoff() == null) {
            return 0;
        }
        long base = millis(retry.backoff().base(), 0);
        long cap = millis(retry.backoff().cap(), Long.MAX_VALUE);
        if (base <= 0) {
            return 0;
        }
        // Doubling past 62 bits overflows; long before that the cap (or a century) has been reached.
        long delay = base;
        for (int i = 0; i < attempt && delay < cap; i++) {
            delay = delay > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : delay * 2;
        }
        return Math.min(delay, cap);
    }

    /** How many re-creations the flow entry allows (0 without {@code retry}). */
    public static int maxRetries(FlowRetry retry) {
        return retry == null || retry.maxRetries() == null ? 0 : Math.max(0, retry.maxRetries());
    }

    private static long millis(String goDuration, long absent) {
        if (goDuration == null) {
            return absent;
        }
        return GoDuration.parse(goDuration)
                .filter(d -> !d.isNegative())
                .map(Duration::toMillis)
                .orElse(absent);
    }
}
