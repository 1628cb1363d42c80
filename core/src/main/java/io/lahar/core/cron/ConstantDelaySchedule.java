package io.lahar.core.cron;

import java.time.Duration;
import java.time.Instant;

/** {@code @every <duration>}: robfig/cron's ConstantDelaySchedule, activating every {@code delay}. */
public record ConstantDelaySchedule(Duration delay) implements Schedule {

    /** robfig/cron's Every: at least one second, fractions of a second dropped. */
    public static ConstantDelaySchedule every(Duration d) {
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            d = Duration.ofSeconds(1);
        }
        return new ConstantDelaySchedule(Duration.ofSeconds(d.getSeconds()));
    }

    /** {@code t + delay}, on the second. */
    @Override
    public Instant next(Instant t) {
        return t.plus(delay).minusNanos(t.getNano());
    }
}
