package io.lahar.scheduler.mapping;

import java.util.Map;
import java.util.TreeMap;

/** Avro hands out CharSequence (Utf8) for strings; the core wants String. */
final class Strings {
    private Strings() {}

    static String of(CharSequence s) {
        return s == null ? null : s.toString();
    }

    static Map<String, String> map(Map<? extends CharSequence, ? extends CharSequence> raw) {
        Map<String, String> out = new TreeMap<>();
        if (raw != null) raw.forEach((k, v) -> out.put(k.toString(), v == null ? null : v.toString()));
        return out;
    }
}
