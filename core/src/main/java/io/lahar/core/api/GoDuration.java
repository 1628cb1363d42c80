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

    private GoDuration() {
    }

    /** The duration, or empty when the text is not a Go duration. "0" alone is valid, as in Go. */
    public static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String s = text.trim();
        if (s.equals("0") || s.equals("+0") || s.equals("-0")) {
            return Optional.of(Duration.ZERO);
        }
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
        Duration d = Duration.ofNanos(nanos.longValue());
        return Optional.of(negative ? d.negated() : d);
    }
}
