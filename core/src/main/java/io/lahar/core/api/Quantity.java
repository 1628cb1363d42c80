package io.lahar.core.api;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ("500m", "2", "8Gi", "1e3", "1.5G"), parsed to an exact
 * decimal of base units (cores for cpu, bytes for memory).
 */
public final class Quantity {

    private static final Pattern FORMAT = Pattern.compile(
            "([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");

    private Quantity() {
    }

    /** The value in base units, or empty when the text is not a Kubernetes quantity. */
    public static Optional<BigDecimal> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = FORMAT.matcher(text.trim());
        if (text.isBlank() || !m.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(m.group(1).replaceFirst("^\\+", "").replaceFirst("^(-?)\\.", "$10."));
        String suffix = m.group(2);
        if (suffix == null) {
            return Optional.of(number);
        }
        BigDecimal factor = switch (suffix) {
            case "Ki" -> BigDecimal.valueOf(1L << 10);
            case "Mi" -> BigDecimal.valueOf(1L << 20);
            case "Gi" -> BigDecimal.valueOf(1L << 30);
            case "Ti" -> BigDecimal.valueOf(1L << 40);
            case "Pi" -> BigDecimal.valueOf(1L << 50);
            case "Ei" -> BigDecimal.valueOf(1L << 60);
            case "n" -> new BigDecimal("1e-9");
            case "u" -> new BigDecimal("1e-6");
            case "m" -> new BigDecimal("1e-3");
            case "k" -> new BigDecimal("1e3");
            case "M" -> new BigDecimal("1e6");
            case "G" -> new BigDecimal("1e9");
            case "T" -> new BigDecimal("1e12");
            case "P" -> new BigDecimal("1e15");
            case "E" -> new BigDecimal("1e18");
            default -> BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        };
        return Optional.of(number.multiply(factor));
    }

    public static boolean isValid(String text) {
        return parse(text).isPresent();
    }

    /** Milli-units, rounded up as Kubernetes' MilliValue does (cpu "0.5" is 500). */
    public static Optional<Long> milliValue(String text) {
        return parse(text).map(v -> v.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact());
    }
}
