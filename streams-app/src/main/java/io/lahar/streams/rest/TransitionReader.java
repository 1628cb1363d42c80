package io.lahar.streams.rest;

import io.lahar.schema.JobTransition;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A job's transitions from {@code lahar.job-transitions}: the jobs store keeps no history (state
 * per job stays bounded), so the log is read back. Only the key's partition is read, and only its
 * last {@code lahar.api.transitions-scan} records, keeping the newest {@code limit} of the job's.
 */
@ApplicationScoped
public class TransitionReader {

    /** One transition as the API returns it. */
    public record TransitionView(
            String from,
            String to,
            String event,
            String action,
            String policy,
            String reason,
            String message,
            int version,
            int retryCount,
            String time,
            String source) {}

    @Inject
    KafkaClients kafka;

    @ConfigProperty(name = "lahar.api.transitions-scan", defaultValue = "100000")
    long scanWindow;

    @Inject
    RegistrySerdes serdes;

    public List<TransitionView> read(String key, int limit, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Deque<TransitionView> newest = new ArrayDeque<>();
        try (KafkaConsumer<String, JobTransition> consumer = kafka.consumer(
                config,
                new StringDeserializer(),
                serdes.value(JobTransition.class).deserializer())) {
            int partitions =
                    consumer.partitionsFor(Topics.JOB_TRANSITIONS.name()).size();
            if (partitions == 0) {
                return List.of();
            }
            // The producer's default partitioner: murmur2 of the serialised key.
            int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
            TopicPartition tp = new TopicPartition(Topics.JOB_TRANSITIONS.name(), partition);
            consumer.assign(List.of(tp));
            long begin = consumer.beginningOffsets(List.of(tp)).get(tp);
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            consumer.seek(tp, Math.max(begin, end - scanWindow));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                try {
                    for (ConsumerRecord<String, JobTransition> record : consumer.poll(Duration.ofMillis(200))) {
                        if (key.equals(record.key()) && record.value() != null) {
                            newest.addLast(view(record));
                            if (newest.size() > limit) {
                                newest.removeFirst();
                            }
                        }
                    }
                } catch (RecordDeserializationException e) {
                    consumer.seek(tp, e.offset() + 1);
                }
            }
        }
        return List.copyOf(newest);
    }

    private static TransitionView view(ConsumerRecord<String, JobTransition> record) {
        JobTransition t = record.value();
        return new TransitionView(
                t.getFrom(),
                t.getTo(),
                t.getEvent(),
                t.getAction(),
                t.getPolicy(),
                t.getReason(),
                t.getMessage(),
                t.getVersion(),
                t.getRetryCount(),
                t.getTime().toString(),
                t.getSourceTopic() + "/" + t.getSourcePartition() + "@" + t.getSourceOffset());
    }
}
