package io.lahar.console;

import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes records of the contract as Lahar's writers do (registry serdes, string keys), or raw bytes. */
public final class TopicWriter implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final RegistrySerdes serdes;
    private final Map<Class<?>, Serializer<SpecificRecord>> serializers = new HashMap<>();

    public TopicWriter(String bootstrap, String registryUrl) {
        this.serdes = new RegistrySerdes(registryUrl);
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /** Every topic of the contract, with its partitions and cleanup policy; those that exist are left. */
    public static void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            var existing = admin.listTopics().names().get();
            List<NewTopic> missing = Topics.all().stream()
                    .filter(t -> !existing.contains(t.name()))
                    .map(t -> new NewTopic(t.name(), t.partitions(), (short) 1)
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, t.cleanupPolicy())))
                    .toList();
            try {
                admin.createTopics(missing).all().get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    public void send(Topics.TopicSpec topic, String key, SpecificRecord value) {
        byte[] bytes = value == null
                ? null
                : serializers
                        .computeIfAbsent(value.getClass(), c -> (Serializer<SpecificRecord>) (Serializer<?>)
                                serdes.value((Class<SpecificRecord>) c).serializer())
                        .serialize(topic.name(), value);
        sendRaw(topic, key, bytes);
    }

    public void sendRaw(Topics.TopicSpec topic, String key, byte[] value) {
        producer.send(new ProducerRecord<>(topic.name(), key, value));
    }

    public void flush() {
        producer.flush();
    }

    public void sendAll(Topics.TopicSpec topic, List<Map.Entry<String, ? extends SpecificRecord>> records) {
        records.forEach(e -> send(topic, e.getKey(), e.getValue()));
        flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
