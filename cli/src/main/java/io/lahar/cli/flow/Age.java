package io.lahar.cli.flow;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * kubectl's AGE column: the time since a creation timestamp, rounded the way kubectl's
 * HumanDuration does (exact seconds under 2 minutes, then ever coarser units), so a listing reads
 * the same as {@code vcctl jobflow list}.
 */
public final class Age {

    private Age() {
    }

    /** The age of an RFC 3339 {@code timestamp} at {@code now}; {@code <unknown>} when there is none or it does not parse. */
    public static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isBlank() || timestamp.equals("null")) {
            return "<unknown>";
        }
        try {
            return human(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    static String human(Duration d) {
        // Truncated toward zero (-1.5s is -1s), as Go converts a duration to whole seconds.
        long seconds = d.toMillis() / 1000;
        // A clock skew of up to a second between server and client still reads as "just now".
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? days + "d" : days + "d" + h + "h";
        }
        if (days < 365 * 2) {
            return days + "d";
        }
        long years = days / 365;
        if (days < 365 * 8) {
            long dy = days % 365;
            return dy == 0 ? years + "y" : years + "y" + dy + "d";
        }
        return years + "y";
    }
}
