package io.lahar.schema.serde;

import io.apicurio.registry.serde.avro.AvroSerde;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
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

    public <T extends SpecificRecord> Serde<T> value(Class<T> type) {
        AvroSerde<Object> serde = new AvroSerde<>();
        Map<String, Object> generic = config();
        generic.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, false);
        serde.configure(generic, false);
        @SuppressWarnings("unchecked")
        Serializer<T> serializer = (Serializer<T>) (Serializer<?>) serde.serializer();
        return Serdes.serdeFrom(serializer, new SpecificAvroDeserializer<>(type, serde.deserializer()));
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
