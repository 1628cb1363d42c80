package io.lahar.core.scheduling.framework;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A plugin's (or action's) {@code arguments:} from the scheduler-conf, read with defaults. Values
 * stay as the YAML gave them; a getter that cannot read its value throws with the argument's name,
 * and {@link SchedulerConf#parse} calls the plugins' factories up front so that surfaces as a conf
 * problem. The names read are remembered, so the parse can refuse an argument nobody reads
 * ({@link #unread()}): an argument that is accepted must be carried out.
 */
public final class Arguments {

    public static final Arguments EMPTY = new Arguments(Map.of());

    private final Map<String, Object> values;
    private final Set<String> read = ConcurrentHashMap.newKeySet();

    public Arguments(Map<String, Object> values) {
        this.values = values == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(values));
    }

    public static Arguments of(Object... keyValues) {
        Map<String, Object> m = new TreeMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return new Arguments(m);
    }

    public Map<String, Object> values() {
        return values;
    }

    /** The names given that no getter asked for, sorted. */
    public Set<String> unread() {
        Set<String> out = new TreeSet<>(values.keySet());
        out.removeAll(read);
        return out;
    }

    private Object get(String key) {
        read.add(key);
        return values.get(key);
    }

    public boolean has(String key) {
        read.add(key);
        return values.containsKey(key);
    }

    public double getDouble(String key, double dflt) {
        Object v = get(key);
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
        if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("argument " + key + ": expected an integer, got " + values.get(key));
        }
        return (int) d;
    }

    public boolean getBool(String key, boolean dflt) {
        Object v = get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return switch (v.toString().strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new IllegalArgumentException("argument " + key + ": expected true or false, got \"" + v + "\"");
        };
    }

    public String getString(String key, String dflt) {
        Object v = get(key);
        return v == null ? dflt : v.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Arguments a && values.equals(a.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(values);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
