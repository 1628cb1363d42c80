package io.lahar.core.resource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ("500m", "2", "1Gi", "1.5G", "100Ki", "1e3"), held exactly.
 *
 * <p>Kubernetes rounds a quantity up when it converts it to an integer scale, so {@link #milliValue()}
 * and {@link #value()} round towards positive infinity: "0.1m" of cpu is 1 milli-cpu, never 0, and a
 * request is never under-counted.
 */
public final class Quantity implements Comparable<Quantity> {

    // The grammar of k8s.io/apimachinery/pkg/api/resource: <signedNumber><suffix>, where suffix is
    // a binary SI suffix, a decimal SI suffix or a decimal exponent.
    private static final Pattern SYNTAX =
            Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");

    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")));

    private final BigDecimal amount;
    private final String text;

    private Quantity(BigDecimal amount, String text) {
        this.amount = amount;
        this.text = text;
    }

    /**
     * Parses a quantity.
     *
     * @throws QuantityFormatException naming the text and what is wrong with it
     */
    public static Quantity parse(String text) {
        if (text == null) {
            throw new QuantityFormatException(null, "a quantity is required");
        }
        String trimmed = text.strip();
        Matcher m = SYNTAX.matcher(trimmed);
        if (trimmed.isEmpty() || !m.matches()) {
            throw new QuantityFormatException(
                    text, "expected a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, ... or an exponent e3)");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2);
        BigDecimal amount;
        if (suffix == null) {
            amount = number;
        } else if (!SUFFIXES.containsKey(suffix)) { // a decimal exponent: e3, E-3
            int exponent;
            try {
                exponent = Integer.parseInt(suffix.substring(1));
            } catch (NumberFormatException e) {
                throw new QuantityFormatException(text, "exponent out of range");
            }
            if (Math.abs(exponent) > 30) {
                throw new QuantityFormatException(text, "exponent out of range");
            }
            amount = number.scaleByPowerOfTen(exponent);
        } else {
            amount = number.multiply(SUFFIXES.get(suffix));
        }
        return new Quantity(amount, trimmed);
    }

    /** The quantity, or empty when the text is not a Kubernetes quantity (for validators that report it themselves). */
    public static java.util.Optional<Quantity> tryParse(String text) {
        try {
            return java.util.Optional.of(parse(text));
        } catch (QuantityFormatException e) {
            return java.util.Optional.empty();
        }
    }

    /** The exact amount in base units, or empty when the text is not a Kubernetes quantity. */
    public static java.util.Optional<BigDecimal> amountOf(String text) {
        return tryParse(text).map(Quantity::amount);
    }

    /** A quantity of whole units (cores, bytes, pods, devices). */
    public static Quantity of(long units) {
        return new Quantity(BigDecimal.valueOf(units), Long.toString(units));
    }

    /** The exact amount in base units (cores for cpu, bytes for memory). */
    public BigDecimal amount() {
        return amount;
    }

    public boolean isNegative() {
        return amount.signum() < 0;
    }

    /** The amount in thousandths, rounded up (how cpu is counted: "500m" is 500). */
    public long milliValue() {
        return toLong(amount.movePointRight(3));
    }

    /** The amount in base units, rounded up (how memory is counted: "1Ki" is 1024). */
    public long value() {
        return toLong(amount);
    }

    private long toLong(BigDecimal v) {
        BigDecimal rounded = v.setScale(0, RoundingMode.CEILING);
        try {
            return rounded.longValueExact();
        } catch (ArithmeticException e) {
            throw new QuantityFormatException(text, "too large");
        }
    }

    @Override
    public int compareTo(Quantity o) {
        return amount.compareTo(o.amount);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && amount.compareTo(q.amount) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(amount.stripTrailingZeros());
    }

    @Override
    public String toString() {
        return text;
    }
}
