package io.lahar.core.scheduling.framework;

import java.util.Map;
import java.util.TreeMap;

/**
 * A plugin's {@code arguments:} from the scheduler-conf, read with defaults. Values stay as the YAML
 * gave them; a getter that cannot read its value throws with the argument's name, and
 * {@link SchedulerConf#parse} calls the plugins' factories up front so that surfaces as a conf problem.
 */
public record Arguments(Map<String, Object> values) {

    public static final Arguments EMPTY = new Arguments(Map.of());

    public Arguments {
        values = values == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(values));
    }

    public static Arguments of(Object... keyValues) {
        Map<String, Object> m = new TreeMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return new Arguments(m);
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    public double getDouble(String key, double dflt) {
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.parseDouble(v.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("argument " + key + ": expected a number, got \"" + v + "\"");
        }
    }

    public int getInt(String key, int dflt) {
        double d = getDouble(key, dflt);
        if (d != Math.rint(d)) {
            throw new IllegalArgumentException("argument " + key + ": expected an integer, got " + values.get(key));
        }
        return (int) d;
    }

    public boolean getBool(String key, boolean dflt) {
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return switch (v.toString().strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("argument " + key + ": expected true or false, got \"" + v + "\"");
        };
    }

    public String getString(String key, String dflt) {
        Object v = values.get(key);
        return v == null ? dflt : v.toString();
    }
}
