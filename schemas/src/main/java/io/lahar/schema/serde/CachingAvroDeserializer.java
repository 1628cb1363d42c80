package io.lahar.schema.serde;

import io.lahar.schema.deadletter.TransientFailure;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.Decoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads registry-encoded records (magic byte 0, 4-byte schema id, Avro binary) straight into the
 * generated class {@code T}, with one resolving reader per writer schema id.
 *
 * <p>Why: the registry serde builds a new datum reader for every record (a schema fingerprint and a
 * full writer/reader resolution each time), and {@link SpecificAvroDeserializer} then re-encodes the
 * generic record and resolves it again into {@code T}: three schema resolutions per record. In the
 * scheduling loop that was the largest part of the thread's time under load
 * (docs/decisions/008-codecs-held-to-library-bytes.md). Here
 * the registry deserializer decodes only the first record of each schema id, to learn the writer's
 * schema (the registry is asked once per id); every later record of that id is one
 * {@link SpecificDatumReader#read} from the bytes.
 *
 * <p>The result is the record {@link SpecificAvroDeserializer} gives: Avro's schema resolution
 * (fields added since the writer's version take their defaults), timestamps as {@code Instant}, and
 * the generated classes looked up through {@code T}'s class loader (which, inside Quarkus, is the
 * only one that sees them). Null (a tombstone) reads as null; bytes that do not start with the magic
 * byte go to {@link SpecificAvroDeserializer} unchanged.
 *
 * <p>Stricter than Avro's resolution in one way: the writer's record must have {@code T}'s name (or
 * one of its aliases), as the Avro specification asks of a reader. Avro's Java resolution matches
 * fields by name only, so a {@code Node} resolved as a {@code Queue} (its other fields defaulted)
 * would read as an open queue named after the node. Errors say which schema id, and what the
 * registry answered for it; a registry that does not answer raises the {@code TransientFailure} of
 * {@link RegistrySerdes}.
 *
 * <p>Thread-safe: Kafka Streams may share one serde between stream threads. The readers sit in a
 * concurrent map; a {@link SpecificDatumReader} whose schemas are fixed keeps its resolver per
 * thread, and every call decodes with its own decoder.
 */
public final class CachingAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final Deserializer<Object> registry;
    private final Deserializer<T> fallback;
    private final SpecificData data;
    private final Schema readerSchema;
    private final String readerLayout;
    private final Map<Integer, Reader<T>> readers = new ConcurrentHashMap<>();

    /**
     * The reader of one writer schema id, and whether that schema lays records out as {@code T}'s
     * own does (same Parsing Canonical Form: the same fields and types in the same order, so the
     * same bytes; docs, defaults and logical types aside).
     */
    private record Reader<T>(SpecificDatumReader<T> datumReader, boolean sameLayout, String wrongType) {}

    /** Reads a record's fields straight from its Avro binary, laid out as {@code T}'s own schema. */
    @FunctionalInterface
    public interface DirectReader<R> {
        R read(Decoder in) throws IOException;
    }

    /** With the registry deserializer of {@code serdes}. */
    public CachingAvroDeserializer(Class<T> type, RegistrySerdes serdes) {
        this(type, serdes.genericSerde().deserializer());
    }

    /**
     * @param registry decodes registry-encoded bytes into a {@link GenericRecord} of the writer's
     *                 schema (a generic, not specific, reader: see {@link SpecificAvroDeserializer})
     */
    public CachingAvroDeserializer(Class<T> type, Deserializer<Object> registry) {
        this.registry = registry;
        this.fallback = new SpecificAvroDeserializer<>(type, registry);
        this.data = new SpecificData(type.getClassLoader());
        // The generated classes hold timestamps as Instant: the reader converts as they do.
        this.data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        // Avro's fast reader: the writer/reader resolution is compiled once per reader into field
        // readers, instead of a resolving decoder interpreting it for every record (the pod event
        // decode was a visible share of the stream thread on the lifecycle benchmark).
        this.data.setFastReaderEnabled(true);
        this.readerSchema = data.getSchema(type);
        this.readerLayout = SchemaNormalization.toParsingForm(readerSchema);
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) return null;
        if (bytes.length < HEADER || bytes[0] != MAGIC) return notWireFormat(topic, bytes);
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        Reader<T> reader = reader(topic, bytes, id);
        return reader == null ? fallback.deserialize(topic, bytes) : decode(reader, topic, id, bytes);
    }

    /** Bytes without the registry's header: what the registry serde makes of them, or why not. */
    private T notWireFormat(String topic, byte[] bytes) {
        try {
            return fallback.deserialize(topic, bytes);
        } catch (RuntimeException e) {
            if (RegistrySerdes.unanswered(e) || e instanceof TransientFailure) throw e;
            throw new IllegalArgumentException(
                    "value: not a registry-encoded record on " + topic + " (" + bytes.length
                            + " bytes; the wire format is the magic byte 0 and a 4-byte schema id before the Avro binary)",
                    e);
        }
    }

    /**
     * A record read with {@code direct} when its writer's schema lays it out as {@code T}'s own does
     * — the usual case, producer and reader built from the same schema — and otherwise decoded as
     * {@link #deserialize} does (Avro's resolution) and given to {@code decoded}. Why: a reader that
     * needs a few fields of a record need not build all of it. Errors as {@link #deserialize}'s.
     *
     * @param direct  reads the fields in {@code T}'s schema's order from the Avro binary
     * @param decoded the same from a decoded record
     */
    public <R> R read(String topic, byte[] bytes, DirectReader<R> direct, Function<? super T, R> decoded) {
        if (bytes == null || bytes.length < HEADER || bytes[0] != MAGIC) {
            T record = deserialize(topic, bytes);
            return record == null ? null : decoded.apply(record);
        }
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        Reader<T> reader = reader(topic, bytes, id);
        if (reader == null || !reader.sameLayout()) {
            T record = reader == null ? fallback.deserialize(topic, bytes) : decode(reader, topic, id, bytes);
            return record == null ? null : decoded.apply(record);
        }
        try {
            return direct.read(decoder(bytes));
        } catch (IOException | RuntimeException e) {
            throw undecodable(topic, id, e);
        }
    }

    /**
     * The reader for the id, null when the registry's decoding gives no generic record.
     *
     * @throws IllegalArgumentException when the registry has no such id, or its schema is another record type
     */
    private Reader<T> reader(String topic, byte[] bytes, int id) {
        Reader<T> reader = readers.get(id);
        if (reader == null) {
            // The first record of this id: the registry deserializer fetches the writer's schema.
            Object decoded = fetch(topic, bytes, id);
            if (!(decoded instanceof GenericRecord record)) return null;
            Schema writer = record.getSchema();
            String wrongType = sameType(writer)
                    ? null
                    : "value: schema id " + id + " on " + topic + " is the schema of " + writer.getFullName()
                            + " records, not of " + readerSchema.getFullName() + " records: a record of another topic";
            // Two threads meeting a new id at once may both build one; either is right.
            reader = readers.computeIfAbsent(
                    id,
                    ignored -> new Reader<>(
                            new SpecificDatumReader<>(writer, readerSchema, data),
                            readerLayout.equals(SchemaNormalization.toParsingForm(writer)),
                            wrongType));
        }
        if (reader.wrongType() != null) throw new IllegalArgumentException(reader.wrongType());
        return reader;
    }

    /** The registry serde's decoding of the first record of an id, its failure said in words. */
    private Object fetch(String topic, byte[] bytes, int id) {
        try {
            return registry.deserialize(topic, bytes);
        } catch (RuntimeException e) {
            if (RegistrySerdes.unanswered(e) || e instanceof TransientFailure) throw e;
            throw RegistrySerdes.answer(e)
                    .map(answer -> new IllegalArgumentException(
                            "value: schema id " + id + " on " + topic
                                    + " is not in the schema registry, which answered " + answer,
                            e))
                    .orElseGet(() -> undecodable(topic, id, e));
        }
    }

    /** The Avro specification's rule: a reader reads records of its own name or of one of its aliases. */
    private boolean sameType(Schema writer) {
        return writer.getType() == Schema.Type.RECORD
                && (writer.getName().equals(readerSchema.getName())
                        || readerSchema.getAliases().contains(writer.getFullName()));
    }

    /** The record resolved into {@code T} from its writer's schema. */
    private T decode(Reader<T> reader, String topic, int id, byte[] bytes) {
        try {
            return reader.datumReader().read(null, decoder(bytes));
        } catch (IOException | RuntimeException e) {
            throw undecodable(topic, id, e);
        }
    }

    /** The record's Avro binary after the header, strings read straight from the array ({@link ByteArrayDecoder}). */
    private static Decoder decoder(byte[] bytes) {
        return new ByteArrayDecoder(bytes, HEADER, bytes.length - HEADER);
    }

    private IllegalArgumentException undecodable(String topic, int id, Exception e) {
        return new IllegalArgumentException(
                "value: cannot decode a record of schema id " + id + " on " + topic + " as " + readerSchema.getName()
                        + ": " + e.getMessage(),
                e);
    }

    /** How many writer schema ids this has met (one reader each). */
    int cachedReaders() {
        return readers.size();
    }

    @Override
    public void close() {
        registry.close();
    }
}
