package io.lahar.core.cron;

import java.time.Instant;

/**
 * When a CronJob's jobs are due: Volcano's mostRecentScheduleTime, nextScheduleTime and
 * nextScheduleTimeDuration (cronjob_controller_util.go), on epoch milliseconds.
 */
public final class ScheduleTimes {

    /** Past this many missed start times Volcano warns TooManyMissedTimes. */
    static final int MANY_MISSED = 100;

    private ScheduleTimes() {}

    public enum Missed {
        NONE,
        FEW,
        MANY
    }

    /**
     * @param earliest   the CronJob's last schedule time or creation time (later: the starting deadline)
     * @param mostRecent the most recent time a job should have been created, null when none is due
     * @param error      the schedule never gives two distinct times (null when it does)
     */
    public record Recent(long earliest, Long mostRecent, Missed missed, String error) {}

    /**
     * Volcano's mostRecentScheduleTime: the latest activation of {@code schedule} after the last
     * schedule (or creation) time and not after {@code now}, and whether few or many were missed.
     *
     * @param startingDeadlineSeconds null when not set; counted only with {@code includeDeadline}
     */
    public static Recent mostRecent(
            Schedule schedule,
            long createdAt,
            Long lastScheduleTime,
            Long startingDeadlineSeconds,
            long now,
            boolean includeDeadline) {
        long earliest = lastScheduleTime != null ? lastScheduleTime : createdAt;
        if (includeDeadline && startingDeadlineSeconds != null) {
            // The controller schedules nothing before this point.
            long deadline =
                    startingDeadlineSeconds > now / 1000 + 1 ? Long.MIN_VALUE : now - startingDeadlineSeconds * 1000;
            if (deadline > earliest) {
                earliest = deadline;
            }
        }
        Long t1 = next(schedule, earliest);
        Long t2 = t1 == null ? null : next(schedule, t1);
        if (t1 != null && now < t1) {
            return new Recent(earliest, null, Missed.NONE, null);
        }
        if (t2 != null && now < t2) {
            return new Recent(earliest, t1, Missed.NONE, null);
        }
        // A schedule that parses but whose second time is missing or equal ("59 23 31 2 *").
        long between = t1 == null || t2 == null ? 0 : Math.round((t2 - t1) / 1000.0);
        if (between < 1) {
            return new Recent(
                    earliest, null, Missed.NONE, "time difference between two schedules is less than 1 second");
        }
        // A rough count: how many intervals like the first fit between it and now.
        long elapsed = (now - t1) / 1000;
        long missedCount = elapsed / between + 1;
        // Back one interval more than the count says, and let the schedule walk to now: exact for
        // irregular schedules ("30 6-16/4 * * 1-5") and for @every.
        long potentialEarliest = t1 + (missedCount - 2) * between * 1000;
        Long mostRecent = null;
        for (Long t = next(schedule, potentialEarliest); t != null && t <= now; t = next(schedule, t)) {
            mostRecent = t;
        }
        Missed missed = missedCount > MANY_MISSED ? Missed.MANY : missedCount > 0 ? Missed.FEW : Missed.NONE;
        return new Recent(earliest, mostRecent, missed, null);
    }

    /**
     * Volcano's nextScheduleTimeDuration as a time rather than a delay (without its 100 ms of
     * clock-skew padding: the first tick at or after it wakes the CronJob): the activation after
     * the most recent one due, or after now when some were missed; null when there is none.
     */
    public static Long due(Schedule schedule, long createdAt, Long lastScheduleTime, long now) {
        Recent r = mostRecent(schedule, createdAt, lastScheduleTime, null, now, false);
        long from;
        if (r.error() != null) {
            from = now;
        } else if (r.mostRecent() != null) {
            from = r.mostRecent();
        } else {
            from = r.missed() == Missed.NONE ? r.earliest() : now;
        }
        return next(schedule, from);
    }

    static Long next(Schedule schedule, long epochMillis) {
        Instant t = schedule.next(Instant.ofEpochMilli(epochMillis));
        return t == null ? null : t.toEpochMilli();
    }
}
