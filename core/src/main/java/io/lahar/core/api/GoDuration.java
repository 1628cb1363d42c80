package io.lahar.core.api;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Go duration strings as Kubernetes' metav1.Duration writes them ("90s", "1m30s",
 * "1.5h", "300ms"). Go accepts a sign and the units ns, us (µs), ms, s, m, h.
 */
public final class GoDuration {

    private static final Pattern WHOLE = Pattern.compile("[-+]?((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

    private GoDuration() {}

    /** The duration, or empty when the text is not a Go duration. "0" alone is valid, as in Go. */
    public static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String s = text.trim();
        if (s.equals("0") || s.equals("+0") || s.equals("-0")) {
            return Optional.of(Duration.ZERO);
        }
        Duration exact = exact(s);
        return exact != null ? Optional.of(exact) : general(s);
    }

    private static final long[] POW10 = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L
    };

    /**
     * The common case without regular expressions or BigDecimal: a sign and parts of ASCII digits
     * and units whose nanoseconds are whole and fit a long. Null for anything else, which
     * {@link #general} then decides — so both give the same answer. Why: the lifecycle writes a
     * status's runningDuration into every job-status record.
     */
    static Duration exact(String s) {
        int n = s.length();
        int i = 0;
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (i == n) {
            return null;
        }
        long total = 0;
        while (i < n) {
            long whole = 0;
            int digits = 0;
            for (char c; i < n && (c = s.charAt(i)) >= '0' && c <= '9'; i++, digits++) {
                if (digits == 18) {
                    return null;
                }
                whole = whole * 10 + (c - '0');
            }
            long fraction = 0;
            int fractionDigits = 0;
            if (i < n && s.charAt(i) == '.') {
                i++;
                for (char c; i < n && (c = s.charAt(i)) >= '0' && c <= '9'; i++, fractionDigits++) {
                    if (fractionDigits == 9) {
                        return null;
                    }
                    fraction = fraction * 10 + (c - '0');
                }
            }
            if (digits == 0 && fractionDigits == 0) {
                return null;
            }
            char u = i < n ? s.charAt(i) : 0;
            boolean sNext = i + 1 < n && s.charAt(i + 1) == 's';
            long unit;
            if (u == 'n' && sNext) {
                unit = 1L;
                i += 2;
            } else if (u == 'u' && sNext) {
                unit = 1_000L;
                i += 2;
            } else if (u == 'm' && sNext) {
                unit = 1_000_000L;
                i += 2;
            } else if (u == 's') {
                unit = 1_000_000_000L;
                i++;
            } else if (u == 'm') {
                unit = 60_000_000_000L;
                i++;
            } else if (u == 'h') {
                unit = 3_600_000_000_000L;
                i++;
            } else {
                return null;
            }
            try {
                long fractionNanos = Math.multiplyExact(fraction, unit);
                if (fractionNanos % POW10[fractionDigits] != 0) {
                    return null;
                }
                total = Math.addExact(
                        total, Math.addExact(Math.multiplyExact(whole, unit), fractionNanos / POW10[fractionDigits]));
            } catch (ArithmeticException overflow) {
                return null;
            }
        }
        Duration d = Duration.ofNanos(total);
        return negative ? d.negated() : d;
    }

    /** Any duration Go accepts, summed exactly; empty when the text is not one. */
    static Optional<Duration> general(String s) {
        if (!WHOLE.matcher(s).matches()) {
            return Optional.empty();
        }
        boolean negative = s.startsWith("-");
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher m = PART.matcher(s);
        while (m.find()) {
            BigDecimal amount = new BigDecimal(m.group(1).startsWith(".") ? "0" + m.group(1) : m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us", "µs", "μs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos = nanos.add(amount.multiply(BigDecimal.valueOf(unit)));
        }
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Optional.empty(); // Go: time: invalid duration
        }
        Duration d = Duration.ofNanos(nanos.longValue());
        return Optional.of(negative ? d.negated() : d);
    }

    /** Milliseconds as Go's time.Duration.String writes them ("1h2m3.5s", "500ms", "0s"), as metav1.Duration prints. */
    public static String format(long millis) {
        if (millis == 0) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        long ms = Math.abs(millis);
        if (millis < 0) {
            b.append('-');
        }
        if (ms < 1000) {
            return b.append(ms).append("ms").toString();
        }
        long h = ms / 3_600_000;
        long m = (ms / 60_000) % 60;
        long s = (ms / 1000) % 60;
        long rest = ms % 1000;
        if (h > 0) {
            b.append(h).append('h');
        }
        if (h > 0 || m > 0) {
            b.append(m).append('m');
        }
        b.append(s);
        if (rest > 0) {
            // The milliseconds as three digits without their trailing zeros (".5", ".25", ".125"); by hand,
            // not String.format and a regex: a running job's status carries this on every pod event.
            char[] digits = {(char) ('0' + rest / 100), (char) ('0' + rest / 10 % 10), (char) ('0' + rest % 10)};
            int length = 3;
            while (digits[length - 1] == '0') {
                length--;
            }
            b.append('.').append(digits, 0, length);
        }
        return b.append('s').toString();
    }
}
