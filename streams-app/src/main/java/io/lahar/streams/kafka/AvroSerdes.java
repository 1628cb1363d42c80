package io.lahar.streams.kafka;

import io.apicurio.registry.serde.avro.AvroSerde;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.HashMap;
import java.util.Map;

/**
 * Avro serdes for the topic contract, backed by the schema registry. Values are written in the
 * Confluent wire format (magic byte and 4-byte schema id) so third-party clients interoperate;
 * schemas are registered on first use under the TopicIdStrategy subject {@code <topic>-value}.
 */
@ApplicationScoped
public class AvroSerdes {

    private final String registryUrl;

    @Inject
    public AvroSerdes(@ConfigProperty(name = "lahar.schema-registry.url") String registryUrl) {
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
