package io.lahar.schema.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes records of the generated class {@code T} in the registry's wire format (magic byte 0,
 * 4-byte schema id, Avro binary) with one datum writer, asking the registry serializer only for the
 * first record of each topic.
 *
 * <p>Why: the registry serde builds a datum writer and fingerprints the schema for every record; a
 * session that binds tens of thousands of pods writes as many decisions. A generated class's schema
 * is fixed for the life of the process, so the 5-byte header the registry serializer puts in front
 * of the first record of a class on a topic (the id it registered or found under the topic's subject
 * {@code <topic>-value}) is the header of every later one. The bytes are the registry serializer's,
 * byte for byte. Null (a tombstone) writes as null.
 *
 * <p>Thread-safe: the headers and writers sit in a concurrent map, a {@link SpecificDatumWriter} holds no
 * per-record state, and each thread encodes into its own buffer.
 */
public final class CachingAvroSerializer<T extends SpecificRecord> implements Serializer<T> {
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final Serializer<? super T> registry;
    private final SpecificData data;
    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();

    /**
     * Per topic and per record class: a serializer of {@code T} may be handed any generated record
     * (a test or a tool writing several topics with one producer does), and each class has its own
     * schema, so its own id and writer.
     */
    private record Key(String topic, Class<?> type) {}

    private record Cached(byte[] header, SpecificDatumWriter<SpecificRecord> writer) {}

    /** With the registry serializer of {@code serdes}. */
    public CachingAvroSerializer(Class<T> type, RegistrySerdes serdes) {
        this(type, serdes.genericSerde().serializer());
    }

    /** @param registry writes a record in the registry's wire format, registering its schema */
    public CachingAvroSerializer(Class<T> type, Serializer<? super T> registry) {
        this.registry = registry;
        this.data = new SpecificData(type.getClassLoader());
        // The generated classes hold timestamps as Instant: the writer converts as they do.
        data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) return null;
        Key key = new Key(topic, value.getClass());
        Cached cached = cache.get(key);
        if (cached == null) {
            byte[] first = registry.serialize(topic, value);
            // Only the wire format this class knows is cached; anything else stays the registry's.
            if (first != null && first.length >= HEADER && first[0] == MAGIC) {
                cache.putIfAbsent(
                        key,
                        new Cached(Arrays.copyOf(first, HEADER), new SpecificDatumWriter<>(value.getSchema(), data)));
            }
            return first;
        }
        return encode(
                topic, value.getClass(), cached.header(), out -> cached.writer().write(value, out));
    }

    /**
     * A value that writes its own Avro binary: the binary {@link #record()} would have, written
     * straight from what the record would be built from (see {@code JobStatusCodec.write}), for a
     * topic where building the record is most of the cost of a value.
     */
    public interface Direct<T extends SpecificRecord> {
        /** The value as a record: what the registry serializer is handed for a topic's first value. */
        T record();

        /** Writes the Avro binary of {@link #record()}, byte for byte. */
        void write(Encoder out) throws IOException;
    }

    /**
     * {@code value} in the wire format of a record of {@code type}: the header cached for the topic
     * and the value's own binary; the topic's first value goes through the registry serializer as a
     * record (which registers or finds the schema, and caches the header). Null writes as null.
     */
    public byte[] serialize(String topic, Class<? extends T> type, Direct<? extends T> value) {
        if (value == null) return null;
        Cached cached = cache.get(new Key(topic, type));
        if (cached == null) {
            return serialize(topic, value.record());
        }
        return encode(topic, type, cached.header(), value::write);
    }

    private interface Body {
        void write(Encoder out) throws IOException;
    }

    private static byte[] encode(String topic, Class<?> type, byte[] header, Body body) {
        Buffer buffer = BUFFER.get();
        try {
            buffer.reset();
            buffer.write(header);
            // Buffered, and the thread's encoder reused with its buffer: a direct encoder made one
            // (synchronized) stream write per field, a large part of the time of a record.
            buffer.encoder = EncoderFactory.get().binaryEncoder(buffer, buffer.encoder);
            body.write(buffer.encoder);
            buffer.encoder.flush();
            return buffer.toByteArray();
        } catch (IOException | RuntimeException e) {
            // A record that failed half-way leaves bytes in the encoder's buffer: never reuse it.
            buffer.encoder = null;
            throw new IllegalArgumentException(
                    "cannot encode a " + type.getSimpleName() + " for " + topic + ": " + e.getMessage(), e);
        }
    }

    /**
     * Each thread encodes into one buffer (and encoder) it keeps, and copies the bytes out. Why: a
     * fresh buffer per record grew from 256 bytes by doubling for every job-status record (its
     * manifest inline): a visible share of what the streams-app's stream thread allocated. A buffer
     * that grew past {@link #KEPT_BYTES} (a rare huge record) is swapped for a small one at the next
     * record, not kept for good.
     */
    private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

    private static final int KEPT_BYTES = 256 * 1024;

    private static final class Buffer extends ByteArrayOutputStream {
        BinaryEncoder encoder;

        Buffer() {
            super(4096);
        }

        @Override
        public void reset() {
            if (buf.length > KEPT_BYTES) {
                buf = new byte[4096];
            }
            super.reset();
        }
    }

    @Override
    public void close() {
        registry.close();
    }
}
