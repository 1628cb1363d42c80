package io.lahar.bridge.kafka;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which offsets the bridge may commit. A record whose work waits in memory (a bind whose pod does
 * not exist yet, a create waiting for the old pod to go) holds its partition's commit at its own
 * offset until the work is done or superseded: a bridge that restarts meanwhile reads the record
 * again instead of losing the work. Everything after it is re-read too, which every reconciler
 * tolerates (create-if-absent, binds checked against the pod, deletes idempotent). A record whose
 * calls are still under way ({@link #started}, until {@link #finished}) holds its partition's commit
 * the same way, so a commit never passes a call that has not completed, whatever finished after it.
 * Single-threaded: only the input loop uses it.
 */
final class OffsetLedger {

    /** partition → the next offset to read (everything before it is handled). */
    private final Map<TopicPartition, Long> next = new HashMap<>();
    /** partition → waiting key → offset of the record whose work waits under that key. */
    private final Map<TopicPartition, Map<String, Long>> held = new HashMap<>();
    /** partition → offsets of the records whose calls are under way. */
    private final Map<TopicPartition, TreeSet<Long>> underWay = new HashMap<>();
    /** partition → what was committed last, so only progress is committed. */
    private final Map<TopicPartition, Long> committed = new HashMap<>();

    void handled(TopicPartition partition, long offset) {
        next.merge(partition, offset + 1, Math::max);
    }

    /** The record at {@code offset} was handed to the lanes: read, not yet done. */
    void started(TopicPartition partition, long offset) {
        handled(partition, offset);
        underWay.computeIfAbsent(partition, p -> new TreeSet<>()).add(offset);
    }

    /** The calls of the record at {@code offset} completed (a partition no longer held is ignored). */
    void finished(TopicPartition partition, long offset) {
        var offsets = underWay.get(partition);
        if (offsets != null && offsets.remove(offset) && offsets.isEmpty()) {
            underWay.remove(partition);
        }
    }

    /** Whether this member still reads {@code partition} (its outcomes count). */
    boolean owns(TopicPartition partition) {
        return next.containsKey(partition);
    }

    /**
     * The record at {@code offset} left work waiting under {@code key}; a later record waiting
     * under the same key replaces it (the reconcilers keep one waiting item per key).
     */
    void hold(TopicPartition partition, String key, long offset) {
        held.computeIfAbsent(partition, p -> new HashMap<>()).put(key, offset);
    }

    /**
     * The offsets to commit now: per partition, the oldest record still waiting, or else the next
     * offset to read; only those that moved since the last commit.
     *
     * @param waiting whether the work under (topic, key) still waits
     */
    Map<TopicPartition, OffsetAndMetadata> commitable(BiPredicate<String, String> waiting) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> entry : next.entrySet()) {
            TopicPartition partition = entry.getKey();
            long offset = entry.getValue();
            var running = underWay.get(partition);
            if (running != null) {
                offset = Math.min(offset, running.first());
            }
            Map<String, Long> keys = held.get(partition);
            if (keys != null) {
                keys.entrySet().removeIf(k -> !waiting.test(partition.topic(), k.getKey()));
                for (long heldAt : keys.values()) {
                    offset = Math.min(offset, heldAt);
                }
                if (keys.isEmpty()) {
                    held.remove(partition);
                }
            }
            Long last = committed.get(partition);
            if (last == null || offset > last) {
                out.put(partition, new OffsetAndMetadata(offset));
            }
        }
        return out;
    }

    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((partition, offset) -> committed.put(partition, offset.offset()));
    }

    /** The partitions went to another member (or the consumer stopped): forget them. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(p -> {
            next.remove(p);
            held.remove(p);
            underWay.remove(p);
            committed.remove(p);
        });
    }

    /** Records whose calls are under way, for tests and logs. */
    int underWayCount() {
        return underWay.values().stream().mapToInt(Set::size).sum();
    }

    /** Offsets still held back, for tests and logs. */
    int heldCount() {
        return held.values().stream().mapToInt(Map::size).sum();
    }
}
