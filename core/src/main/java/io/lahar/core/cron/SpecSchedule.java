package io.lahar.core.cron;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * A crontab schedule as robfig/cron's SpecSchedule keeps it: one bit set per field (bit n for
 * value n; bit 63 when the field was {@code *} or {@code ?}), evaluated in {@code zone}.
 * {@link #next} is its algorithm step for step, Go's time arithmetic included, so daylight
 * saving transitions give the times Volcano's controller computes (a 2:30 that does not exist is
 * skipped, a 1:00 that happens twice runs twice).
 */
public record SpecSchedule(long second, long minute, long hour, long dom, long month, long dow, ZoneId zone)
        implements Schedule {

    /** Set when a field was {@code *} or {@code ?}: the day-of-month and day-of-week rule depends on it. */
    static final long STAR_BIT = 1L << 63;

    record Bounds(int min, int max, java.util.Map<String, Integer> names) {}

    static final Bounds SECONDS = new Bounds(0, 59, null);
    static final Bounds MINUTES = new Bounds(0, 59, null);
    static final Bounds HOURS = new Bounds(0, 23, null);
    static final Bounds DOM = new Bounds(1, 31, null);
    static final Bounds MONTHS = new Bounds(
            1,
            12,
            java.util.Map.ofEntries(
                    java.util.Map.entry("jan", 1),
                    java.util.Map.entry("feb", 2),
                    java.util.Map.entry("mar", 3),
                    java.util.Map.entry("apr", 4),
                    java.util.Map.entry("may", 5),
                    java.util.Map.entry("jun", 6),
                    java.util.Map.entry("jul", 7),
                    java.util.Map.entry("aug", 8),
                    java.util.Map.entry("sep", 9),
                    java.util.Map.entry("oct", 10),
                    java.util.Map.entry("nov", 11),
                    java.util.Map.entry("dec", 12)));
    static final Bounds DOW =
            new Bounds(0, 6, java.util.Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4, "fri", 5, "sat", 6));

    @Override
    public Instant next(Instant from) {
        ZoneRules rules = zone.getRules();
        // Start at the earliest possible time (the upcoming second).
        long t = from.getEpochSecond() + 1;
        int yearLimit = local(t, rules).getYear() + 5;
        boolean added = false;
        wrap:
        while (true) {
            LocalDateTime l = local(t, rules);
            if (l.getYear() > yearLimit) {
                return null;
            }
            while (!has(month, l.getMonthValue())) {
                if (!added) {
                    added = true;
                    t = date(l.getYear(), l.getMonthValue(), 1, 0, rules);
                    l = local(t, rules);
                }
                t = date(
                        l.getYear(),
                        l.getMonthValue() + 1,
                        l.getDayOfMonth(),
                        l.getHour(),
                        l.getMinute(),
                        l.getSecond(),
                        rules);
                l = local(t, rules);
                if (l.getMonthValue() == 1) {
                    continue wrap;
                }
            }
            while (!dayMatches(l)) {
                if (!added) {
                    added = true;
                    t = date(l.getYear(), l.getMonthValue(), l.getDayOfMonth(), 0, rules);
                    l = local(t, rules);
                }
                t = date(
                        l.getYear(),
                        l.getMonthValue(),
                        l.getDayOfMonth() + 1,
                        l.getHour(),
                        l.getMinute(),
                        l.getSecond(),
                        rules);
                l = local(t, rules);
                // Midnight may not exist (a daylight saving jump at 0:00): back to the day's first hour.
                if (l.getHour() != 0) {
                    t += l.getHour() > 12 ? (24L - l.getHour()) * 3600 : -l.getHour() * 3600L;
                    l = local(t, rules);
                }
                if (l.getDayOfMonth() == 1) {
                    continue wrap;
                }
            }
            while (!has(hour, l.getHour())) {
                if (!added) {
                    added = true;
                    t = date(l.getYear(), l.getMonthValue(), l.getDayOfMonth(), l.getHour(), rules);
                }
                t += 3600;
                l = local(t, rules);
                if (l.getHour() == 0) {
                    continue wrap;
                }
            }
            while (!has(minute, l.getMinute())) {
                if (!added) {
                    added = true;
                    t = Math.floorDiv(t, 60) * 60;
                }
                t += 60;
                l = local(t, rules);
                if (l.getMinute() == 0) {
                    continue wrap;
                }
            }
            while (!has(second, l.getSecond())) {
                added = true;
                t += 1;
                l = local(t, rules);
                if (l.getSecond() == 0) {
                    continue wrap;
                }
            }
            return Instant.ofEpochSecond(t);
        }
    }

    /**
     * Why this schedule can never fire although it parses (robfig/cron accepts {@code 0 0 30 2 *}
     * and then finds no time), or null when it fires: a field that matches no value, or a day of
     * the month that none of its months has while the day of the week is {@code *}.
     */
    public String neverFires() {
        String[] names = {"minute", "hour", "day-of-month", "month", "day-of-week"};
        long[] bits = {minute, hour, dom, month, dow};
        for (int i = 0; i < bits.length; i++) {
            if ((bits[i] & ~STAR_BIT) == 0) {
                return "its " + names[i] + " field matches no value";
            }
        }
        if ((dom & STAR_BIT) == 0 && (dow & STAR_BIT) == 0) {
            return null; // either day field may match: some weekday always comes
        }
        int[] longest = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        for (int m = 1; m <= 12; m++) {
            for (int d = 1; d <= longest[m] && has(month, m); d++) {
                if (has(dom, d)) {
                    return null;
                }
            }
        }
        return "none of its months has one of its days of the month";
    }

    private boolean dayMatches(LocalDateTime l) {
        boolean domMatch = has(dom, l.getDayOfMonth());
        boolean dowMatch = has(dow, l.getDayOfWeek().getValue() % 7);
        if ((dom & STAR_BIT) != 0 || (dow & STAR_BIT) != 0) {
            return domMatch && dowMatch;
        }
        return domMatch || dowMatch;
    }

    static boolean has(long bits, int value) {
        return (bits & (1L << value)) != 0;
    }

    private static LocalDateTime local(long epochSecond, ZoneRules rules) {
        ZoneOffset offset = rules.getOffset(Instant.ofEpochSecond(epochSecond));
        return LocalDateTime.ofEpochSecond(epochSecond, 0, offset);
    }

    private static long date(int year, int month, int day, int hour, ZoneRules rules) {
        return date(year, month, day, hour, 0, 0, rules);
    }

    /**
     * Go's {@code time.Date} in a zone: month and day overflow into the next ones, and a wall
     * time that does not exist or exists twice resolves as Go resolves it (the offset in force
     * an offset's width before), which is not what {@code ZonedDateTime.of} does in a gap.
     */
    static long date(int year, int month, int day, int hour, int minute, int second, ZoneRules rules) {
        LocalDate d = LocalDate.of(year, 1, 1).plusMonths(month - 1L).plusDays(day - 1L);
        long unix = d.toEpochDay() * 86_400 + hour * 3_600L + minute * 60L + second;
        long offset = rules.getOffset(Instant.ofEpochSecond(unix)).getTotalSeconds();
        return unix - rules.getOffset(Instant.ofEpochSecond(unix - offset)).getTotalSeconds();
    }
}
