package io.lahar.streams;

import io.lahar.schema.JobCommand;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;

/** A test's own streams-app on the shared broker: its Kafka Streams settings, and a producer of its inputs. */
public final class BrokerApp {

    private BrokerApp() {}

    /** Exactly-once, a commit every 100 ms, reading only what the test sends. */
    public static Properties config(LaharInfra infra, String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // Only what this test sends: the shared broker's topics hold every other test's records.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "latest");
        return props;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static KafkaProducer<String, SpecificRecord> producer(LaharInfra infra, RegistrySerdes serdes) {
        // The registry serializer writes any generated record (the class only matters for reading).
        Serializer<SpecificRecord> values =
                (Serializer) serdes.value(JobCommand.class).serializer();
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        infra.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                values);
    }

    static RecordMetadata send(
            KafkaProducer<String, SpecificRecord> producer, Topics.TopicSpec topic, String key, SpecificRecord value)
            throws Exception {
        return producer.send(new ProducerRecord<>(topic.name(), key, value)).get();
    }
}
