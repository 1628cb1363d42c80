package io.lahar.bridge.reconcile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the CR mirror and the CR watcher tell each other about deletions, so neither answers the
 * other: CRs the bridge deleted itself (the Lahar object is gone already: no delete command goes
 * back), and Lahar objects whose CR someone deleted in the cluster (a status record read late,
 * before the tombstone that follows the delete command, does not bring the CR back). Bounded, the
 * oldest first out: a forgotten entry costs at most a delete command the engine answers "not found",
 * or a CR shown again until its tombstone is read.
 */
public final class MirrorLedger {

    private static final int LIMIT = 10_000;

    private final Set<String> deletedByBridge = bounded();
    private final Set<String> deletedInCluster = bounded();

    /** The bridge is about to delete the CR with this UID. */
    public void deletingCr(String crUid) {
        if (crUid != null) {
            deletedByBridge.add(crUid);
        }
    }

    /** Whether the bridge deleted this CR itself; answers once per UID. */
    public boolean deletedByBridge(String crUid) {
        return crUid != null && deletedByBridge.remove(crUid);
    }

    /** Someone deleted the CR of the Lahar object with this (engine) UID in the cluster. */
    public void deletedInCluster(String engineUid) {
        if (engineUid != null) {
            deletedInCluster.add(engineUid);
        }
    }

    /** Whether the CR of the Lahar object with this (engine) UID was deleted in the cluster. */
    public boolean isDeletedInCluster(String engineUid) {
        return engineUid != null && deletedInCluster.contains(engineUid);
    }

    private static Set<String> bounded() {
        return Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > LIMIT;
            }
        }));
    }
}
