package io.lahar.schema.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads a registry-encoded record as the generated class {@code T}. The registry serde decodes
 * with the writer's schema into a generic record; this then resolves it against {@code T}'s
 * schema (Avro's schema resolution: added fields take their defaults) with a SpecificData bound
 * to the class loader that has the generated classes. The serde's own specific reader looks the
 * classes up by name in a loader that, inside Quarkus, cannot see them.
 *
 * <p>Three schema resolutions per record: {@link RegistrySerdes#value} reads through
 * {@link CachingAvroDeserializer} instead, which gives the same records and comes here only for
 * bytes that are not in the registry's wire format.
 */
public final class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    private final Class<T> type;
    private final Deserializer<Object> generic;
    private final SpecificData data;
    private final Schema readerSchema;

    public SpecificAvroDeserializer(Class<T> type, Deserializer<Object> generic) {
        this.type = type;
        this.generic = generic;
        this.data = new SpecificData(type.getClassLoader());
        // The generated classes hold timestamps as Instant: the reader must convert as they do.
        this.data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        this.readerSchema = data.getSchema(type);
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        Object decoded = generic.deserialize(topic, bytes);
        if (decoded == null) {
            return null;
        }
        if (type.isInstance(decoded)) {
            return type.cast(decoded);
        }
        if (!(decoded instanceof GenericRecord record)) {
            throw new IllegalArgumentException("expected an Avro record for " + type.getSimpleName() + ", got "
                    + decoded.getClass().getName());
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            SpecificDatumReader<T> reader = new SpecificDatumReader<>(record.getSchema(), readerSchema, data);
            return reader.read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
