package io.lahar.cli;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The CLI's access to a compacted topic of cluster-wide objects (queues, PriorityClasses): read
 * whole, to its end, so the result is the current value of every key (a tombstone removes one); a
 * record or a tombstone written and acknowledged. Failures are {@link IllegalStateException}s that
 * say which topic.
 */
public final class CompactedTopics {

    /** Short enough that a wrong address fails the command quickly instead of hanging for a minute. */
    private static final int API_TIMEOUT_MS = 15_000;

    private final KafkaClients kafka;
    private final RegistrySerdes serdes;

    /** @param kafka the connection settings ({@link io.lahar.schema.KafkaSettings}) */
    public CompactedTopics(Map<String, Object> kafka, RegistrySerdes serdes) {
        this.kafka = KafkaClients.of(kafka);
        this.serdes = serdes;
    }

    /** Writes a record, or a tombstone when {@code value} is null, and waits for the ack. */
    public <T extends SpecificRecord> void write(String topic, Class<T> type, String key, T value) {
        try (KafkaProducer<String, T> producer = kafka.producer(
                Map.of(
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG,
                        API_TIMEOUT_MS,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        API_TIMEOUT_MS,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        API_TIMEOUT_MS / 2),
                new StringSerializer(),
                serdes.value(type).serializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + topic);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot write " + topic + ": " + e.getCause().getMessage(), e);
        }
    }

    /** The latest value of every key of the topic, by key. */
    public <T extends SpecificRecord> Map<String, T> readToEnd(String topic, Class<T> type) {
        Map<String, T> latest = new TreeMap<>();
        try (KafkaConsumer<String, T> consumer = kafka.consumer(
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        API_TIMEOUT_MS,
                        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        API_TIMEOUT_MS / 2),
                new StringDeserializer(),
                serdes.value(type).deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline =
                    System.nanoTime() + Duration.ofMillis(API_TIMEOUT_MS).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "cannot read " + topic + " to its end within " + API_TIMEOUT_MS + " ms");
                }
                for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        latest.remove(r.key());
                    } else {
                        latest.put(r.key(), r.value());
                    }
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException("cannot read " + topic + ": " + e.getMessage(), e);
        }
        return latest;
    }
}
