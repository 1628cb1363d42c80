package io.lahar.core.api;

import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the RFC 3339 timestamps the engine writes into status fields (conditions'
 * {@code lastTransitionTime}, {@code state.lastTransitionTime}), which are
 * {@link Instant#toString()}: {@code 2026-11-29T10:00:00Z}, {@code 2026-11-29T10:00:00.123Z}.
 *
 * <p>Why not {@link Instant#parse}: every job-status record re-reads every condition's time (a job
 * gathers one per phase), and {@code Instant.parse} builds a formatter context with hash maps per
 * call — measured, the largest allocation site of the lifecycle's stream thread and a visible share
 * of its CPU. This reads that one shape directly; anything else (an offset,
 * lowercase letters, a year past 9999) goes to {@code Instant.parse}, so the result and the errors
 * are {@code Instant.parse}'s for every input.
 */
public final class Timestamps {

    private Timestamps() {}

    /** The instant {@code text} names; {@code Instant.parse}'s result and exceptions. */
    public static Instant parse(CharSequence text) {
        Instant fast = utc(text);
        return fast != null ? fast : Instant.parse(text);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, or null when {@code text} is not exactly that. */
    private static Instant utc(CharSequence s) {
        int n = s.length();
        if (n < 20
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':'
                || s.charAt(n - 1) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0
                || month < 1
                || month > 12
                || day < 1
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59) {
            return null;
        }
        int nanos = 0;
        if (n > 20) {
            int fraction = n - 21; // between '.' and 'Z'
            if (s.charAt(19) != '.' || fraction < 1 || fraction > 9) return null;
            int value = digits(s, 20, fraction);
            if (value < 0) return null;
            nanos = value;
            for (int i = fraction; i < 9; i++) nanos *= 10;
        }
        LocalDate first = LocalDate.of(year, month, 1);
        if (day > first.lengthOfMonth()) return null;
        long epochDay = first.toEpochDay() + day - 1;
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal value of {@code count} ASCII digits from {@code from}, or -1 if one is not a digit. */
    private static int digits(CharSequence s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
