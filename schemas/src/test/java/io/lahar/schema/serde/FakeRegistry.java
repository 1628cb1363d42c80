package io.lahar.schema.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An in-memory registry serde in the registry's wire format (magic byte 0, 4-byte schema id, Avro
 * binary): ids are handed out per distinct schema text, and every call is counted, so the tests can
 * see how often the caching serdes fall back to "the registry".
 */
final class FakeRegistry {
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger(41);
    final AtomicInteger serializations = new AtomicInteger();
    final AtomicInteger deserializations = new AtomicInteger();

    int idOf(Schema schema) {
        return ids.computeIfAbsent(schema.toString(), text -> {
            int id = next.incrementAndGet();
            schemas.put(id, schema);
            return id;
        });
    }

    /** {@code datum} as a producer with {@code writer} as its schema writes it. */
    byte[] write(Schema writer, Object datum) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0);
            out.write(ByteBuffer.allocate(4).putInt(idOf(writer)).array());
            SpecificData data = new SpecificData();
            data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>(writer, data).write(datum, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Serializer<Object> serializer() {
        return (topic, value) -> {
            serializations.incrementAndGet();
            return value == null ? null : write(((GenericContainer) value).getSchema(), value);
        };
    }

    /** Decodes into a generic record of the writer's schema, as the registry's generic reader does. */
    Deserializer<Object> deserializer() {
        return (topic, bytes) -> {
            deserializations.incrementAndGet();
            if (bytes == null) return null;
            Schema writer = schemas.get(ByteBuffer.wrap(bytes, 1, 4).getInt());
            if (writer == null)
                throw new IllegalArgumentException(
                        "no schema with id " + ByteBuffer.wrap(bytes, 1, 4).getInt());
            try {
                return new GenericDatumReader<>(writer)
                        .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
