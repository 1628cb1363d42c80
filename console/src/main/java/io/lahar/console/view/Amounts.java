package io.lahar.console.view;

import io.lahar.core.resource.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Resource amounts in one unit per resource, for bars and sums: the topics carry Kubernetes
 * quantity strings as their writers chose them ({@code cpu: 36} beside {@code 28400m},
 * {@code ephemeral-storage: 429496729600} beside {@code memory: 128Gi}), which no reader can
 * compare by eye. CPU is counted in cores, byte resources (memory, storage, hugepages) in bytes,
 * everything else as a plain count.
 */
public final class Amounts {

    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Amounts() {}

    /** One resource's amount: the number in the resource's unit and the same, written for a reader. */
    public record Amount(double value, String text) {}

    /** The amount of a quantity string, or empty when it is not one. */
    public static Optional<Double> value(String quantity) {
        return Quantity.tryParse(quantity).map(q -> q.amount().doubleValue());
    }

    /** Every parsable entry of a quantity map, in one unit per resource; others left out. */
    public static Map<String, Amount> of(Map<? extends CharSequence, ? extends CharSequence> quantities) {
        Map<String, Amount> out = new LinkedHashMap<>();
        if (quantities == null) {
            return out;
        }
        quantities.forEach((name, quantity) ->
                value(quantity.toString()).ifPresent(v -> out.put(name.toString(), amount(name.toString(), v))));
        return out;
    }

    /** Sums amounts per resource. */
    public static Map<String, Double> add(Map<String, Double> into, Map<String, BigDecimal> more) {
        more.forEach((name, v) -> into.merge(name, v.doubleValue(), Double::sum));
        return into;
    }

    public static Amount amount(String resource, double value) {
        return new Amount(value, format(resource, value));
    }

    /** {@code 28.4} (cores), {@code 128 GiB}, {@code 110}: the unit the resource is counted in. */
    public static String format(String resource, double value) {
        if (isBytes(resource)) {
            double v = value;
            int unit = 0;
            while (Math.abs(v) >= 1024 && unit < BINARY.length - 1) {
                v /= 1024;
                unit++;
            }
            return number(v) + " " + BINARY[unit];
        }
        return number(value);
    }

    static boolean isBytes(String resource) {
        return resource.equals("memory") || resource.contains("storage") || resource.startsWith("hugepages-");
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(java.util.Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
