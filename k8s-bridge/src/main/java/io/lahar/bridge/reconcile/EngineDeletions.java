package io.lahar.bridge.reconcile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pods the engine asked to delete, by UID, so the pod watch can tell them from pods deleted by
 * anyone else (a user, the kubelet, an eviction), which are reported as deletedByOthers — Volcano's
 * PodEvicted. Bounded: the oldest entries go first; a forgotten entry only turns a requested
 * deletion into an "evicted" one, which the state machine treats as Volcano does.
 */
public final class EngineDeletions {

    private static final int LIMIT = 100_000;

    private final Map<String, Boolean> uids = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > LIMIT;
        }
    });

    public void requested(String uid) {
        if (uid != null) {
            uids.put(uid, Boolean.TRUE);
        }
    }

    /** Whether the engine asked for this deletion; answers once per UID. */
    public boolean consume(String uid) {
        return uid != null && uids.remove(uid) != null;
    }
}
