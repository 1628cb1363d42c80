package io.lahar.core.util;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that keeps at most {@code capacity} entries, forgetting the least recently used (read or
 * written) first: the bound of the memos and caches kept beside the engines' state, which must not
 * grow with every job ever seen. Not synchronized.
 */
public final class LruMap<K, V> extends LinkedHashMap<K, V> {

    private final int capacity;

    public LruMap(int capacity) {
        super(16, 0.75f, true);
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
