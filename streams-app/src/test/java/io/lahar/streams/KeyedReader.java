package io.lahar.streams;

import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads one topic of the shared broker from the start, keeping only the records of one key (other
 * tests write the same topics), committed ones only; tombstones are kept as null values.
 */
final class KeyedReader<T extends SpecificRecord> implements AutoCloseable {

    private final KafkaConsumer<String, T> consumer;
    private final String key;
    private final List<T> seen = new ArrayList<>();

    KeyedReader(String bootstrapServers, String registryUrl, String topic, Class<T> type, String key) {
        this.key = key;
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "it-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new RegistrySerdes(registryUrl).value(type).deserializer());
        consumer.subscribe(List.of(topic));
    }

    /** Every record of the key read so far, in order (null for a tombstone). */
    List<T> all() {
        return seen;
    }

    /** Polls until {@code count} records of the key read so far match, or fails after 60 s. */
    List<T> await(Predicate<T> wanted, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<T> matching = seen.stream().filter(wanted).toList();
            if (matching.size() >= count) {
                return matching;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + matching.size() + " of " + count + " wanted records of " + key
                        + " after 60 s; seen: " + seen);
            }
            for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                if (key.equals(r.key())) {
                    seen.add(r.value());
                }
            }
        }
    }

    /** Polls for {@code time}, then every record of the key read so far. */
    List<T> pollFor(Duration time) {
        long deadline = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                if (key.equals(r.key())) {
                    seen.add(r.value());
                }
            }
        }
        return seen;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
