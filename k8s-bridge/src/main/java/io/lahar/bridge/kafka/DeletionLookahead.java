package io.lahar.bridge.kafka;

import io.lahar.schema.DeletePod;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.Failures;
import io.lahar.schema.deadletter.InputRecords;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * After a restart (or any new assignment) the loop re-reads the pod intents after the committed
 * offset — more of them now that a waiting record holds the commit back. A CreatePod re-read there
 * whose pod was deleted by a later DeletePod would be created again and deleted moments later: a
 * resurrection, with pod events for a pod the engine has finished with. So, before the loop reads
 * them, the intents from the committed offset to the current end are scanned once for DeletePods,
 * which the reconciler notes: the re-read creates they cover are dropped.
 */
final class DeletionLookahead {

    private static final Logger LOG = Logger.getLogger(DeletionLookahead.class);
    static final Duration BUDGET = Duration.ofSeconds(30);

    private final KafkaClients kafka;
    private final Map<String, Object> props;
    private final Deserializer<PodIntent> intents;
    private final Optional<String> namespace;

    DeletionLookahead(
            KafkaClients kafka,
            Map<String, Object> consumerProps,
            Deserializer<PodIntent> intents,
            Optional<String> namespace) {
        this.kafka = kafka;
        this.props = new HashMap<>(consumerProps);
        // A plain reader of assigned partitions: no group, nothing committed.
        this.props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        this.intents = intents;
        this.namespace = namespace;
    }

    /** Scans the assigned pod-intent partitions from the group's committed offsets to their ends. */
    void scan(
            KafkaConsumer<String, byte[]> group,
            Collection<TopicPartition> assigned,
            BiConsumer<String, DeletePod> deleted) {
        List<TopicPartition> partitions = assigned.stream()
                .filter(p -> p.topic().equals(Topics.POD_INTENTS.name()))
                .toList();
        if (partitions.isEmpty()) {
            return;
        }
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = group.committed(java.util.Set.copyOf(partitions));
            Map<TopicPartition, Long> ends = group.endOffsets(partitions);
            Map<TopicPartition, Long> from = new HashMap<>();
            for (TopicPartition p : partitions) {
                OffsetAndMetadata c = committed.get(p);
                // Nothing committed: the loop starts at the earliest record, and so does the scan.
                long start = c == null ? -1 : c.offset();
                if (start < ends.get(p)) {
                    from.put(p, start);
                }
            }
            if (!from.isEmpty()) {
                int found = read(from, ends, deleted);
                LOG.infof(
                        "look-ahead over %d pod-intent partitions found %d deletions to honour on re-read",
                        from.size(), found);
            }
        } catch (RuntimeException e) {
            // Only a refinement: without it a re-read create may briefly resurrect a deleted pod.
            LOG.warnf("look-ahead for deletions failed, going on without it: %s", DeadLetters.reason(e));
        }
    }

    private int read(
            Map<TopicPartition, Long> from, Map<TopicPartition, Long> ends, BiConsumer<String, DeletePod> deleted) {
        int found = 0;
        try (KafkaConsumer<String, byte[]> reader =
                kafka.consumer(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            reader.assign(from.keySet());
            from.forEach((p, offset) -> {
                if (offset < 0) {
                    reader.seekToBeginning(List.of(p));
                } else {
                    reader.seek(p, offset);
                }
            });
            long deadline = System.nanoTime() + BUDGET.toNanos();
            while (from.keySet().stream().anyMatch(p -> reader.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    LOG.warnf("look-ahead for deletions stopped after %s", BUDGET);
                    break;
                }
                for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(200))) {
                    TopicPartition p = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() >= ends.get(p) || record.value() == null || !mine(record.key())) {
                        continue;
                    }
                    PodIntent intent;
                    try {
                        intent = InputRecords.read(Topics.POD_INTENTS, record.key(), record.value(), intents);
                    } catch (RuntimeException e) {
                        if (Failures.isTransient(e)) {
                            throw e; // the registry is away: go on without the look-ahead
                        }
                        continue; // the loop itself dead-letters it when it gets there
                    }
                    if (intent.getIntent() instanceof DeletePod delete) {
                        deleted.accept(intent.getNamespace(), delete);
                        found++;
                    }
                }
            }
        }
        return found;
    }

    private boolean mine(String key) {
        return namespace.isEmpty() || (key != null && key.startsWith(namespace.get() + "/"));
    }
}
