package io.lahar.cli.replay;

import io.lahar.schema.JobCommand;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodEvent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads what the streams-app's task for one job read: partition p (the default partitioner's for
 * the key {@code namespace/name}) of the job commands, pod events, scheduler decisions — only the
 * job's records — and every tick of the clock's partition p, up to the end offsets seen at the
 * start, then merges them in the task's order ({@link InputMerge}); and the queues topic, for
 * admission ({@link QueueHistory}).
 */
public final class InputLog {

    /** The topics of the lifecycle source, in the order they are subscribed. */
    public static final List<String> TOPICS = List.of(
            Topics.JOB_COMMANDS.name(),
            Topics.POD_EVENTS.name(),
            Topics.SCHEDULER_DECISIONS.name(),
            Topics.CLOCK.name());

    /** The job's inputs in processing order, and the queues admission knew over time. */
    public record Log(List<ReplayInput> inputs, QueueHistory queues) {}

    private InputLog() {}

    /** The partition the default partitioner gives a record key among {@code partitions}. */
    public static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** @param kafka the connection settings ({@link io.lahar.schema.KafkaSettings}) */
    public static Log read(Map<String, Object> kafka, RegistrySerdes serdes, String jobKey, Duration timeout) {
        Object bootstrap = kafka.get(io.lahar.schema.KafkaSettings.BOOTSTRAP_SERVERS);
        Map<String, Object> config = new java.util.HashMap<>();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<String, Deserializer<?>> decoders = Map.of(
                Topics.JOB_COMMANDS.name(), serdes.value(JobCommand.class).deserializer(),
                Topics.POD_EVENTS.name(), serdes.value(PodEvent.class).deserializer(),
                Topics.SCHEDULER_DECISIONS.name(),
                        serdes.value(SchedulerDecision.class).deserializer(),
                Topics.CLOCK.name(), serdes.value(Tick.class).deserializer());
        try (KafkaConsumer<String, byte[]> consumer =
                KafkaClients.of(kafka).consumer(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(Topics.JOB_COMMANDS.name(), timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException(
                        "topic " + Topics.JOB_COMMANDS.name() + " does not exist at " + bootstrap);
            }
            int p = partitionOf(jobKey, infos.size());
            List<TopicPartition> partitions =
                    TOPICS.stream().map(t -> new TopicPartition(t, p)).toList();
            TopicPartition queuesPartition = new TopicPartition(Topics.QUEUES.name(), 0);
            List<TopicPartition> assigned = new ArrayList<>(partitions);
            assigned.add(queuesPartition);
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            Deserializer<io.lahar.schema.Queue> queueDecoder =
                    serdes.value(io.lahar.schema.Queue.class).deserializer();
            List<QueueHistory.Change> queueChanges = new ArrayList<>();
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, timeout);
            List<List<ReplayInput>> queues = new ArrayList<>();
            partitions.forEach(tp -> queues.add(new ArrayList<>()));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(consumer, assigned, ends)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + partitions + " to their end within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() >= ends.get(new TopicPartition(r.topic(), r.partition()))) {
                        continue;
                    }
                    if (r.topic().equals(Topics.QUEUES.name())) {
                        Object queue = decode(queueDecoder, r.topic(), r.value());
                        if (r.key() != null && (r.value() == null || queue != null)) {
                            queueChanges.add(
                                    new QueueHistory.Change(r.timestamp(), r.key(), (io.lahar.schema.Queue) queue));
                        }
                        continue;
                    }
                    int q = TOPICS.indexOf(r.topic());
                    boolean clock = r.topic().equals(Topics.CLOCK.name());
                    if (!clock && !jobKey.equals(r.key())) {
                        continue;
                    }
                    queues.get(q)
                            .add(new ReplayInput(
                                    r.topic(),
                                    r.partition(),
                                    r.offset(),
                                    r.timestamp(),
                                    r.key() == null ? "" : r.key(),
                                    decode(decoders.get(r.topic()), r.topic(), r.value())));
                }
            }
            return new Log(InputMerge.merge(queues), new QueueHistory(queueChanges));
        }
    }

    private static boolean caughtUp(
            KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> ends) {
        return partitions.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
    }

    /** Null for bytes that do not decode: the streams-app dead-letters those, replay says so. */
    private static Object decode(Deserializer<?> deserializer, String topic, byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return deserializer.deserialize(topic, value);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
