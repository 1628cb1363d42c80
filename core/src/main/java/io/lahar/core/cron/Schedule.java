package io.lahar.core.cron;

import java.time.Instant;

/**
 * A parsed cron schedule (robfig/cron's Schedule, which Volcano's CronJob controller uses): when
 * it next activates after a given time.
 */
public sealed interface Schedule permits SpecSchedule, ConstantDelaySchedule {

    /**
     * The first activation strictly after {@code t}, whole seconds; null when there is none within
     * five years (robfig/cron's zero time), as for {@code 0 0 30 2 *}.
     */
    Instant next(Instant t);
}
