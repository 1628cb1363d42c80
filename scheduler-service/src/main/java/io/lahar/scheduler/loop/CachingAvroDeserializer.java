package io.lahar.scheduler.loop;

import io.apicurio.registry.serde.avro.AvroSerde;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.lahar.schema.serde.RegistrySerdes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads registry-encoded records (magic byte 0, 4-byte schema id, Avro binary) straight into the
 * generated class {@code T}, with one resolving reader per writer schema id.
 *
 * <p>Why: the registry serde builds a new datum reader for every record (a schema fingerprint and a
 * full writer/reader resolution each time), and {@link RegistrySerdes}' deserializer then re-encodes
 * the generic record and resolves it again into {@code T}: three schema resolutions per record. In
 * the scheduling loop that was half the thread's time under load (JFR, docs/BENCHMARKS.md). Here the
 * registry serde decodes only the first record of each schema id, to learn the writer's schema;
 * every later record of that id is one {@link SpecificDatumReader#read} from the bytes.
 *
 * <p>The result is the same record as {@link RegistrySerdes#value}'s deserializer gives (Avro's
 * schema resolution, added fields take their defaults, timestamps as {@code Instant}). Bytes that
 * do not start with the magic byte go to that deserializer unchanged. Not thread-safe: one per
 * consumer thread.
 */
final class CachingAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final Deserializer<T> fallback;
    private final Deserializer<Object> generic;
    private final SpecificData data;
    private final Schema readerSchema;
    private final Map<Integer, SpecificDatumReader<T>> readers = new HashMap<>();
    private BinaryDecoder decoder;

    CachingAvroDeserializer(Class<T> type, RegistrySerdes serdes) {
        this.fallback = serdes.value(type).deserializer();
        AvroSerde<Object> serde = new AvroSerde<>();
        Map<String, Object> config = serdes.config();
        config.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, false);
        serde.configure(config, false);
        this.generic = serde.deserializer();
        this.data = new SpecificData(type.getClassLoader());
        // The generated classes hold timestamps as Instant: the reader converts as they do.
        this.data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        this.readerSchema = data.getSchema(type);
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) return null;
        if (bytes.length < HEADER || bytes[0] != MAGIC) return fallback.deserialize(topic, bytes);
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        SpecificDatumReader<T> reader = readers.get(id);
        if (reader == null) {
            // The first record of this id: the registry serde fetches the writer's schema.
            Object decoded = generic.deserialize(topic, bytes);
            if (!(decoded instanceof GenericRecord record)) return fallback.deserialize(topic, bytes);
            reader = new SpecificDatumReader<>(record.getSchema(), readerSchema, data);
            readers.put(id, reader);
        }
        try {
            decoder = DecoderFactory.get().binaryDecoder(bytes, HEADER, bytes.length - HEADER, decoder);
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode a record of schema id " + id + " on " + topic, e);
        }
    }
}
