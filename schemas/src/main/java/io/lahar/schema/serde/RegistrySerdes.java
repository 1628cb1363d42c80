package io.lahar.schema.serde;

import io.apicurio.registry.serde.avro.AvroSerde;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import java.util.HashMap;
import java.util.Map;

/**
 * Avro serdes for the topic contract, backed by the schema registry. Values are written in the
 * Confluent wire format (magic byte and 4-byte schema id) so third-party clients interoperate;
 * schemas are registered on first use under the TopicIdStrategy subject {@code <topic>-value}.
 * Every Lahar service and tool reads and writes the topics through these, so all of them decode
 * into the generated classes the same way, inside Quarkus or not.
 */
public final class RegistrySerdes {

    private final String registryUrl;

    /** @param registryUrl the Apicurio Registry v3 API, e.g. http://127.0.0.1:8080/apis/registry/v3 */
    public RegistrySerdes(String registryUrl) {
        this.registryUrl = registryUrl;
    }

    /**
     * The serde of a topic whose values are {@code type}. It asks the registry once per topic (to
     * register or find the schema) and once per writer schema id (to learn it), then encodes and
     * decodes with one cached datum writer and one reader per writer schema id: see
     * {@link CachingAvroSerializer} and {@link CachingAvroDeserializer}. Thread-safe.
     */
    public <T extends SpecificRecord> Serde<T> value(Class<T> type) {
        AvroSerde<Object> serde = genericSerde();
        return Serdes.serdeFrom(new CachingAvroSerializer<>(type, serde.serializer()),
                new CachingAvroDeserializer<>(type, serde.deserializer()));
    }

    /**
     * The registry's own serde, reading generic records: the caching serdes ask it for the first
     * record of each topic or schema id (and the per-record cost before them was this plus
     * {@link SpecificAvroDeserializer}).
     */
    public AvroSerde<Object> genericSerde() {
        AvroSerde<Object> serde = new AvroSerde<>();
        Map<String, Object> generic = config();
        generic.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, false);
        serde.configure(generic, false);
        return serde;
    }

    /** The serde settings, also for plain producers and consumers outside Kafka Streams. */
    public Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>();
        config.put(SerdeConfig.REGISTRY_URL, registryUrl);
        config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, true);
        config.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
        return config;
    }
}
