package io.lahar.streams.kafka;

import io.lahar.schema.DeadLetter;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Optional;

/** Builds the dead-letter record for an input that could not be decoded or processed. */
public final class DeadLetters {

    public static final String PROCESSOR = "streams-app";

    private DeadLetters() {
    }

    public static Record<byte[], DeadLetter> of(ProcessorContext<?, ?> context, Record<byte[], byte[]> failed, Throwable error) {
        Optional<RecordMetadata> meta = context.recordMetadata();
        DeadLetter letter = DeadLetter.newBuilder()
                .setTopic(meta.map(RecordMetadata::topic).orElse("unknown"))
                .setPartition(meta.map(RecordMetadata::partition).orElse(-1))
                .setOffset(meta.map(RecordMetadata::offset).orElse(-1L))
                .setTimestamp(Instant.ofEpochMilli(failed.timestamp()))
                .setKey(failed.key() == null ? null : ByteBuffer.wrap(failed.key()))
                .setValue(failed.value() == null ? null : ByteBuffer.wrap(failed.value()))
                .setError(describe(error))
                .setProcessor(PROCESSOR)
                .build();
        return new Record<>(failed.key(), letter, failed.timestamp());
    }

    static String describe(Throwable error) {
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
}
