package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Who watches the store ({@link StoreWatch}), and what a watch that starts from a resource version
 * must be told besides the objects that exist: the deletions since that version. An informer lists,
 * then watches from the list's version; a watch is handed every object it selects when it opens, so
 * an update in between reaches it, but an object deleted in between would stay in the informer's
 * cache for good — so the last {@link #DELETIONS_KEPT} deletions are kept and told first. A watch
 * from a version whose deletions are no longer all known (too old, or given out before a restart of
 * the store) is answered 410 Gone, as kube-apiserver answers one it has compacted away, and its
 * client lists again.
 */
final class StoreWatchers {

    static final int DELETIONS_KEPT = 10_000;

    /**
     * One watcher: a client's connection ({@link StoreWatch}) or code in this JVM ({@link InProcessApi}).
     * It is told of changes under the store's write lock, so {@link #tell} only hands an event on.
     */
    interface Watcher {
        /** What it watches: the key of its path, with the name its field selector gives. */
        StoreQuery query();

        /** The resource version it watches from (0: any, it is handed what exists). */
        long since();

        /** Queues {@code event}, which every watcher it goes to shares. */
        void tell(StoreEvent event);

        /** It watches from a version the store can no longer follow on from: 410 Gone, and it ends. */
        void expire(String message);

        /** Whether an object stored under {@code key} is one it is about. */
        default boolean selects(StoreKey key) {
            return key != null && query().matches(key);
        }
    }

    /**
     * A deletion: its version, the key the object was stored under, and the object as it was. Only
     * its JSON is kept, not its event: thousands are kept for the watches that resume, which are
     * rare, and an event's tree and envelope would take several times the JSON's memory each.
     */
    private record Deletion(long version, StoreKey key, String json) {}

    private final ReadWriteLock lock;
    private final ObjectIndex index;
    private final Set<Watcher> watches = new CopyOnWriteArraySet<>();
    /** Oldest first; changed under the store's write lock, read under its read lock. */
    private final ArrayDeque<Deletion> deletions = new ArrayDeque<>();
    /** A watch from a version below it may have missed a deletion no longer kept (or made before a restart). */
    private long knownFrom;

    /**
     * @param lock  the store's lock: changes are told under its write lock, a watch opens under its read lock
     * @param index the store's objects, handed to a watch as it opens
     */
    StoreWatchers(ReadWriteLock lock, ObjectIndex index) {
        this.lock = lock;
        this.index = index;
    }

    /** The store was restored at {@code version}: nothing from before it can be told again. */
    void restoredAt(long version) {
        knownFrom = Math.max(knownFrom, version);
    }

    /**
     * A change, under the store's write lock: the object under {@code oldKey} ({@code before}; null
     * if created) is now under {@code newKey} ({@code after}; null if deleted, {@code before} then
     * carrying the deletion's {@code version}). Each tree is its JSON parsed, when the writer has it
     * (else null); each event is made once, for every watcher it goes to.
     */
    void changed(
            StoreKey oldKey,
            String before,
            JsonNode beforeTree,
            StoreKey newKey,
            String after,
            JsonNode afterTree,
            long version) {
        StoreEvent deleted = before == null ? null : new StoreEvent("DELETED", before, beforeTree);
        StoreEvent current = after == null ? null : new StoreEvent("ADDED", after, afterTree);
        if (deleted != null && after == null) {
            deletions.addLast(new Deletion(version, oldKey, before));
            if (deletions.size() > DELETIONS_KEPT) {
                knownFrom = Math.max(knownFrom, deletions.removeFirst().version());
            }
        }
        StoreEvent modified = null;
        for (Watcher watch : watches) {
            boolean selectedBefore = watch.selects(oldKey);
            // A write that keeps the object's key (most: a status, a binding) is selected as it was.
            boolean selectedAfter = newKey == oldKey ? selectedBefore : watch.selects(newKey);
            if (selectedBefore && selectedAfter) {
                if (modified == null) {
                    modified = current.as("MODIFIED");
                }
                watch.tell(modified);
            } else if (selectedBefore) {
                watch.tell(deleted);
            } else if (selectedAfter) {
                watch.tell(current);
            }
        }
    }

    /** Adds {@code watch} and hands it every object it selects, in one step under the store's read lock. */
    void opened(Watcher watch) {
        lock.readLock().lock();
        try {
            long since = watch.since();
            if (since > 0 && since < knownFrom) {
                watch.expire("too old resource version: " + since + " (" + knownFrom + ")");
                return;
            }
            watches.add(watch);
            if (since > 0) {
                for (Deletion deletion : deletions) {
                    if (deletion.version() > since && watch.selects(deletion.key())) {
                        watch.tell(new StoreEvent("DELETED", deletion.json(), null));
                    }
                }
            }
            for (ObjectIndex.Entry entry : index.matching(watch.query())) {
                watch.tell(new StoreEvent("ADDED", entry.json(), index.parsed(entry.key())));
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    void ended(Watcher watch) {
        watches.remove(watch);
    }
}
