package io.lahar.bridge;

import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka side of the bridge's integration tests: every contract topic created, a producer that
 * writes Avro through the registry, and a reader that collects, per topic, the records of the keys
 * a test cares about (the broker is shared with other modules' tests: never assume a topic is empty).
 */
final class BridgeKafka implements AutoCloseable {

    private final RegistrySerdes serdes;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    /** topic → the decoded values (null for tombstones) of the watched keys, in order. */
    private final Map<String, List<Object>> seen = new HashMap<>();

    private final Map<String, Deserializer<?>> decoders = new HashMap<>();
    private final Predicate<String> keys;

    /**
     * @param read       topic → the Avro class of its values, for the topics to collect
     * @param keys       which keys to collect
     */
    BridgeKafka(
            LaharInfra infra,
            String groupSuffix,
            Map<String, Class<? extends SpecificRecord>> read,
            Predicate<String> keys) {
        createTopics(infra);
        this.serdes = new RegistrySerdes(infra.registryUrl());
        this.keys = keys;
        Map<String, Object> producerConfig = new HashMap<>(infra.kafkaClientConfig());
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
        read.forEach((topic, type) -> decoders.put(topic, serdes.value(type).deserializer()));
        Map<String, Object> config = new HashMap<>(infra.kafkaClientConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "bridge-it-reader-" + groupSuffix);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.copyOf(read.keySet()));
        // Join the group and take the end positions before anything is sent.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.assignment().forEach(consumer::position);
    }

    static void createTopics(LaharInfra infra) {
        List<NewTopic> topics = new ArrayList<>();
        for (Topics.TopicSpec spec : Topics.all()) {
            NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) 1);
            topics.add(spec.compacted() ? topic.configs(Map.of("cleanup.policy", "compact")) : topic);
        }
        infra.createTopics(topics);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    void send(String topic, String key, SpecificRecord value) {
        byte[] bytes = value == null
                ? null
                : ((Serde) serdes.value(value.getClass())).serializer().serialize(topic, value);
        sendBytes(topic, key, bytes);
    }

    void sendBytes(String topic, String key, byte[] bytes) {
        try {
            producer.send(new ProducerRecord<>(topic, key, bytes)).get();
        } catch (Exception e) {
            throw new IllegalStateException("send to " + topic + " failed", e);
        }
    }

    /** Polls until {@code done} holds or the deadline passes; returns whether it holds. */
    boolean pollUntil(Duration timeout, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.key() != null && keys.test(record.key())) {
                    Object value = record.value() == null
                            ? null
                            : decoders.get(record.topic()).deserialize(record.topic(), record.value());
                    seen.computeIfAbsent(record.topic(), t -> new ArrayList<>()).add(value);
                }
            }
        }
        return true;
    }

    /** The collected values of a topic, tombstones left out. */
    <T> List<T> values(String topic, Class<T> type) {
        return seen.getOrDefault(topic, List.of()).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    @Override
    public void close() {
        consumer.close();
        producer.close();
    }
}
