package io.lahar.core.util;

import java.time.Duration;

/**
 * kubectl's ages (apimachinery's HumanDuration): exact seconds under 2 minutes, then ever coarser
 * units (3m12s, 25m, 5h3m, 3d, 2y10d), so Lahar's listings read as kubectl's and vcctl's do.
 */
public final class HumanDuration {

    private HumanDuration() {}

    /** {@code d} as kubectl prints an age; {@code <invalid>} for more than a second in the future. */
    public static String of(Duration d) {
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
