package io.lahar.console.view;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What changed in the views since the last {@link #drain()}: per kind (jobs, flows, queues, nodes,
 * deadletters), the keys that changed, or every key once more than {@code maxKeys} did, so the
 * set never grows with the burst.
 */
public final class Changes {

    public static final String JOBS = "jobs";
    public static final String FLOWS = "flows";
    public static final String QUEUES = "queues";
    public static final String NODES = "nodes";
    public static final String DEAD_LETTERS = "deadletters";
    /** Stands for "every key of the kind". */
    public static final String ALL = "*";

    private final int maxKeys;
    private Map<String, Set<String>> changed = new HashMap<>();

    Changes(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    void mark(String kind, String key) {
        Set<String> keys = changed.computeIfAbsent(kind, k -> new TreeSet<>());
        if (keys.contains(ALL)) {
            return;
        }
        keys.add(key);
        if (keys.size() > maxKeys) {
            keys.clear();
            keys.add(ALL);
        }
    }

    void mark(String kind) {
        mark(kind, ALL);
        changed.get(kind).retainAll(Set.of(ALL));
    }

    /** The changes so far (kind → keys, {@link #ALL} for all), and a fresh start. */
    Map<String, Set<String>> drain() {
        Map<String, Set<String>> out = changed;
        changed = new HashMap<>();
        return out;
    }
}
