package io.lahar.cli.queue;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.Topics;
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
 * The CLI's access to {@code lahar.queues} and {@code lahar.queue-status}: both compacted and
 * read whole, to their end, so the result is the current value of every key (a tombstone
 * removes one).
 */
final class QueueTopics {

    /** Short enough that a wrong address fails the command quickly instead of hanging for a minute. */
    private static final int API_TIMEOUT_MS = 15_000;

    private final KafkaClients kafka;
    private final RegistrySerdes serdes;

    /** @param kafka the connection settings ({@link io.lahar.schema.KafkaSettings}) */
    QueueTopics(Map<String, Object> kafka, RegistrySerdes serdes) {
        this.kafka = KafkaClients.of(kafka);
        this.serdes = serdes;
    }

    /** The configured queues by name. */
    Map<String, io.lahar.schema.Queue> queues() {
        return readToEnd(Topics.QUEUES.name(), io.lahar.schema.Queue.class);
    }

    /** The scheduler's latest status of each queue, by name. */
    Map<String, QueueStatus> statuses() {
        return readToEnd(Topics.QUEUE_STATUS.name(), QueueStatus.class);
    }

    /** Writes a queue's record, or its tombstone when {@code value} is null, and waits for the ack. */
    void write(String name, io.lahar.schema.Queue value) {
        try (KafkaProducer<String, io.lahar.schema.Queue> producer = kafka.producer(
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
                serdes.value(io.lahar.schema.Queue.class).serializer())) {
            producer.send(new ProducerRecord<>(Topics.QUEUES.name(), name, value))
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + Topics.QUEUES.name());
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot write " + Topics.QUEUES.name() + ": " + e.getCause().getMessage(), e);
        }
    }

    private <T extends SpecificRecord> Map<String, T> readToEnd(String topic, Class<T> type) {
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
