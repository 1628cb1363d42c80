package io.lahar.console.view;

import io.lahar.schema.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest records of {@code lahar.dead-letters}, and the records the console itself could not
 * decode, each with the reason a Lahar processor gave for the same record when one dead-lettered it
 * (looked up by topic, partition and offset, whichever of the two the console read first). Both
 * lists keep the newest {@code capacity} entries.
 */
public final class DeadLettersView {

    /** A dead letter: where the record was, who gave up on it and why. */
    public record DeadLetterRow(
            String topic,
            int partition,
            long offset,
            long timestamp,
            String processor,
            String error,
            String key,
            int valueBytes,
            String position) {}

    private final int capacity;
    private final ArrayDeque<DeadLetterRow> letters = new ArrayDeque<>();
    private final ArrayDeque<Undecodable> undecodable = new ArrayDeque<>();
    /** topic/partition@offset → the dead letter's error, for the letters kept. */
    private final Map<String, String> reasons = new HashMap<>();

    DeadLettersView(int capacity) {
        this.capacity = capacity;
    }

    /** Returns the undecodable record this letter explains, with its reason, or null. */
    Undecodable add(DeadLetter d, String position) {
        DeadLetterRow row = new DeadLetterRow(
                d.getTopic(),
                d.getPartition(),
                d.getOffset(),
                d.getTimestamp().toEpochMilli(),
                d.getProcessor(),
                d.getError(),
                text(d.getKey()),
                d.getValue() == null ? 0 : d.getValue().remaining(),
                position);
        letters.addLast(row);
        String at = d.getTopic() + "/" + d.getPartition() + "@" + d.getOffset();
        reasons.put(at, d.getError());
        if (letters.size() > capacity) {
            DeadLetterRow gone = letters.removeFirst();
            reasons.remove(gone.topic() + "/" + gone.partition() + "@" + gone.offset());
        }
        List<Undecodable> all = new ArrayList<>(undecodable);
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).position().equals(at) && all.get(i).deadLetter() == null) {
                Undecodable explained = all.get(i).withDeadLetter(d.getError());
                all.set(i, explained);
                undecodable.clear();
                undecodable.addAll(all);
                return explained;
            }
        }
        return null;
    }

    /** Records the console could not decode; returns it with the dead letter's reason if known. */
    Undecodable undecodable(Undecodable u) {
        Undecodable explained = u.withDeadLetter(reasons.get(u.position()));
        undecodable.addLast(explained);
        if (undecodable.size() > capacity) {
            undecodable.removeFirst();
        }
        return explained;
    }

    /** Newest first. */
    List<DeadLetterRow> letters() {
        return List.copyOf(letters).reversed();
    }

    /** Newest first. */
    List<Undecodable> undecodables() {
        return List.copyOf(undecodable).reversed();
    }

    private static String text(ByteBuffer key) {
        if (key == null) {
            return null;
        }
        ByteBuffer copy = key.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
