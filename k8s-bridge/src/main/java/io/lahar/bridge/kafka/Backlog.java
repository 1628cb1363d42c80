package io.lahar.bridge.kafka;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * The records the input loop has polled and not yet handed to the lanes, which were full: kept
 * here, each partition's in its order, until the lanes have room. Seeking back to them instead would
 * fetch and check them again from the broker at each poll, a poll's worth for every few records the
 * lanes take in. The records of the {@code first} topic are handed on before the others': a
 * scheduler's bind lets a whole gang start, while a pod created meanwhile waits for its own.
 * Nothing here is committed (the ledger has not seen it), so a partition that leaves this member is
 * simply forgotten: its next reader reads these records again. Single-threaded: only the loop uses it.
 */
final class Backlog {

    private final String first;
    private final Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> partitions = new LinkedHashMap<>();
    private int size;

    /** @param first the topic whose records are handed on first */
    Backlog(String first) {
        this.first = first;
    }

    void addAll(ConsumerRecords<String, byte[]> records) {
        for (ConsumerRecord<String, byte[]> record : records) {
            partitions
                    .computeIfAbsent(new TopicPartition(record.topic(), record.partition()), p -> new ArrayDeque<>())
                    .addLast(record);
            size++;
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /**
     * Takes the next record to hand on: the oldest of a {@code first} topic's partition if one has
     * any, else the oldest of the next partition in turn (so no partition waits for another's whole
     * batch); null if none is left.
     */
    ConsumerRecord<String, byte[]> take() {
        Map.Entry<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> chosen = null;
        for (var entry : partitions.entrySet()) {
            if (entry.getKey().topic().equals(first)) {
                chosen = entry;
                break;
            }
            if (chosen == null) {
                chosen = entry;
            }
        }
        if (chosen == null) {
            return null;
        }
        TopicPartition partition = chosen.getKey();
        ArrayDeque<ConsumerRecord<String, byte[]>> queue = partitions.remove(partition);
        ConsumerRecord<String, byte[]> record = queue.pollFirst();
        if (!queue.isEmpty()) {
            // To the back of the turn.
            partitions.put(partition, queue);
        }
        size--;
        return record;
    }

    /**
     * Empties the backlog and tells, per partition, the offset of its oldest record left, to be read
     * again from there.
     */
    Map<TopicPartition, Long> clear() {
        Map<TopicPartition, Long> from = new LinkedHashMap<>();
        partitions.forEach(
                (partition, queue) -> from.put(partition, queue.getFirst().offset()));
        partitions.clear();
        size = 0;
        return from;
    }

    /** The partitions left this member: their records are forgotten (not committed, their next reader reads them). */
    void forget(Collection<TopicPartition> gone) {
        for (Iterator<TopicPartition> it = partitions.keySet().iterator(); it.hasNext(); ) {
            TopicPartition partition = it.next();
            if (gone.contains(partition)) {
                size -= partitions.get(partition).size();
                it.remove();
            }
        }
    }
}
