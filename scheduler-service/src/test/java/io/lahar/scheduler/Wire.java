package io.lahar.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes input records and reads committed decisions, as the other services and a dashboard would. */
public final class Wire implements AutoCloseable {
    private final String bootstrapServers;
    private final RegistrySerdes serdes;
    private final KafkaProducer<String, byte[]> producer;

    public Wire(String bootstrapServers, String registryUrl) {
        this.bootstrapServers = bootstrapServers;
        this.serdes = new RegistrySerdes(registryUrl);
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    @SuppressWarnings("unchecked")
    public <T extends SpecificRecord> void send(String topic, String key, T value) {
        byte[] bytes = serdes.value((Class<T>) value.getClass()).serializer().serialize(topic, value);
        try {
            producer.send(new ProducerRecord<>(topic, key, bytes)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /** Sends raw bytes, e.g. a record that is not Avro at all. */
    public void sendRaw(String topic, String key, byte[] bytes) {
        try {
            producer.send(new ProducerRecord<>(topic, key, bytes)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /**
     * Reads the committed decisions that are {@code wanted} until {@code done} holds for what was
     * read (or the deadline passes), and returns them in log order per partition.
     */
    public List<SchedulerDecision> decisions(
            Predicate<SchedulerDecision> wanted, Predicate<List<SchedulerDecision>> done, Duration timeout) {
        return read(Topics.SCHEDULER_DECISIONS.name(), SchedulerDecision.class, wanted, done, timeout);
    }

    public <T extends SpecificRecord> List<T> read(
            String topic, Class<T> type, Predicate<T> wanted, Predicate<List<T>> done, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<T> found = new ArrayList<>();
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(
                config, new StringDeserializer(), serdes.value(type).deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(found) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null && wanted.test(r.value())) found.add(r.value());
                }
            }
        }
        assertThat(done.test(found))
                .as("records read from %s: %s", topic, found)
                .isTrue();
        return found;
    }

    @Override
    public void close() {
        producer.close();
    }
}
