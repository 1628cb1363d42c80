package io.lahar.scheduler.loop;

import io.lahar.schema.serde.RegistrySerdes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes records of the generated class {@code T} in the registry's wire format (magic byte 0,
 * 4-byte schema id, Avro binary) with one datum writer, asking the registry serde only for the
 * first record of each topic.
 *
 * <p>Why: the registry serde builds a datum writer and fingerprints the schema for every record;
 * a session that binds tens of thousands of pods writes as many decisions. {@code T}'s schema is
 * fixed for the life of the process, so the 5-byte header the registry serde puts in front of the
 * first record of a topic (the id it registered or looked up for the topic's subject) is the
 * header of every later one. The bytes are the registry serde's, byte for byte. Not thread-safe:
 * one per producing thread.
 */
final class CachingAvroSerializer<T extends SpecificRecord> implements Serializer<T> {
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final Serializer<T> registry;
    private final SpecificDatumWriter<T> writer;
    private final Map<String, byte[]> headers = new HashMap<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
    private BinaryEncoder encoder;

    CachingAvroSerializer(Class<T> type, RegistrySerdes serdes) {
        this.registry = serdes.value(type).serializer();
        SpecificData data = new SpecificData(type.getClassLoader());
        // The generated classes hold timestamps as Instant: the writer converts as they do.
        data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        this.writer = new SpecificDatumWriter<>(data.getSchema(type), data);
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) return null;
        byte[] header = headers.get(topic);
        if (header == null) {
            byte[] first = registry.serialize(topic, value);
            // Only the wire format this class knows is cached; anything else stays the registry's.
            if (first.length >= HEADER && first[0] == MAGIC) {
                headers.put(topic, java.util.Arrays.copyOf(first, HEADER));
            }
            return first;
        }
        try {
            buffer.reset();
            buffer.write(header);
            encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
            writer.write(value, encoder);
            encoder.flush();
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a " + value.getClass().getSimpleName() + " for " + topic, e);
        }
    }
}
