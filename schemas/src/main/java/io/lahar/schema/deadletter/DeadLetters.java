package io.lahar.schema.deadletter;

import io.lahar.schema.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The {@code lahar.dead-letters} record of an input that can never be processed: where it was read
 * (topic, partition, offset), its key and value bytes as they were on the wire, the reason, and the
 * service that gave up on it.
 *
 * <p>The reason is the failure in words: the message of each exception of the cause chain, outermost
 * first, each as {@code <class>: <message>}, joined by {@code " <- caused by "}; Lahar's own checks
 * throw {@link IllegalArgumentException}s whose message starts with the field at fault ({@code key:},
 * {@code value:}) or says what is missing.
 *
 * <p>Bounded: a letter must fit in one record whatever the input was, so the value bytes kept are at
 * most {@link #MAX_VALUE_BYTES} (the reason then says so, and where the whole record is) and the
 * reason at most {@link #MAX_REASON_CHARS} characters.
 */
public final class DeadLetters {

    /** The most value bytes a letter keeps: the input record itself may be near the broker's limit. */
    public static final int MAX_VALUE_BYTES = 512 * 1024;
    /** The most characters of a reason (an exception message may quote a whole manifest). */
    public static final int MAX_REASON_CHARS = 8 * 1024;

    private DeadLetters() {}

    /** The letter of a record read with a plain consumer whose keys are UTF-8 strings. */
    public static DeadLetter of(String processor, ConsumerRecord<String, byte[]> record, Throwable error) {
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        return of(
                processor,
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                key,
                record.value(),
                reason(error));
    }

    /**
     * @param timestamp the input record's timestamp
     * @param key       its key bytes, or null
     * @param value     its value bytes, or null
     */
    public static DeadLetter of(
            String processor,
            String topic,
            int partition,
            long offset,
            long timestamp,
            byte[] key,
            byte[] value,
            String reason) {
        String why = reason;
        byte[] kept = value;
        if (value != null && value.length > MAX_VALUE_BYTES) {
            kept = Arrays.copyOf(value, MAX_VALUE_BYTES);
            why = why + " (value cut to its first " + MAX_VALUE_BYTES + " of " + value.length
                    + " bytes; the whole record is at " + where(topic, partition, offset) + ")";
        }
        if (why.length() > MAX_REASON_CHARS) {
            why = why.substring(0, MAX_REASON_CHARS - 3) + "...";
        }
        return DeadLetter.newBuilder()
                .setTopic(topic)
                .setPartition(partition)
                .setOffset(offset)
                .setTimestamp(Instant.ofEpochMilli(timestamp))
                .setKey(key == null ? null : ByteBuffer.wrap(key))
                .setValue(kept == null ? null : ByteBuffer.wrap(kept))
                .setError(why)
                .setProcessor(processor)
                .build();
    }

    /** The failure in words: each exception of the chain as {@code <class>: <message>}, outermost first. */
    public static String reason(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- caused by ");
            }
            text.append(t.getClass().getName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage());
            }
        }
        return text.toString();
    }

    /** A record's place, as every log line about a dead letter names it: {@code topic-partition@offset}. */
    public static String where(String topic, int partition, long offset) {
        return topic + "-" + partition + "@" + offset;
    }

    /** The log line of a dead letter: where the record was, its key and the reason. */
    public static String describe(DeadLetter letter) {
        String key = letter.getKey() == null
                ? "(none)"
                : '"'
                        + StandardCharsets.UTF_8
                                .decode(letter.getKey().duplicate())
                                .toString()
                        + '"';
        return "dead-lettering " + where(letter.getTopic(), letter.getPartition(), letter.getOffset()) + " key " + key
                + ": " + letter.getError();
    }
}
