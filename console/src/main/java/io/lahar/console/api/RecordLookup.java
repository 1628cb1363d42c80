package io.lahar.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One record of a contract topic, decoded through the registry with its writer's schema: the
 * target of the timeline's "input record" links. One lookup at a time, on a consumer of its own.
 */
public final class RecordLookup implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** The record: key, timestamp, the writer schema's name, the value as JSON, or why it did not decode. */
    public record Found(
            String topic,
            int partition,
            long offset,
            String key,
            long timestamp,
            String schema,
            JsonNode value,
            String error) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final Deserializer<Object> generic;

    public RecordLookup(KafkaClients kafka, RegistrySerdes serdes) {
        this.consumer = kafka.consumer(
                Map.of(
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        "lahar-console-records",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        1),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        this.generic = serdes.genericSerde().deserializer();
    }

    /** Empty when the topic is not one of the contract's, or no record is at that offset. */
    public synchronized Optional<Found> find(String topic, int partition, long offset) {
        Optional<Topics.TopicSpec> spec = Topics.byName(topic);
        if (spec.isEmpty() || partition < 0 || partition >= spec.get().partitions() || offset < 0) {
            return Optional.empty();
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        consumer.assign(List.of(tp));
        consumer.seek(tp, offset);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.offset() == offset) {
                    return Optional.of(decode(r));
                }
                return Optional.empty(); // the offset holds no record (a transaction marker, compacted away)
            }
        }
        return Optional.empty();
    }

    private Found decode(ConsumerRecord<String, byte[]> r) {
        if (r.value() == null) {
            return new Found(r.topic(), r.partition(), r.offset(), r.key(), r.timestamp(), null, null, null);
        }
        try {
            Object value = generic.deserialize(r.topic(), r.value());
            String schema = value instanceof GenericRecord g ? g.getSchema().getFullName() : null;
            return new Found(
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    r.key(),
                    r.timestamp(),
                    schema,
                    JSON.readTree(GenericData.get().toString(value)),
                    null);
        } catch (Exception e) {
            return new Found(
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    r.key(),
                    r.timestamp(),
                    null,
                    null,
                    io.lahar.console.feed.TopicFeed.describe(e));
        }
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
