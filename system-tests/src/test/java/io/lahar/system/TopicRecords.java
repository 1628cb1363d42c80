package io.lahar.system;

import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What the engine wrote about this run's jobs and flows: every committed record of
 * {@code lahar.job-status}, {@code lahar.job-transitions} and {@code lahar.flow-status} whose key
 * starts with the run's namespace, from the end of the topics at {@link #start()} on, in topic
 * order per key; tombstones of the two compacted status topics are kept apart ({@link #deleted},
 * {@link #flowDeleted}). A background consumer (no group, read_committed: what a downstream
 * consumer of an exactly-once app sees).
 */
final class TopicRecords implements AutoCloseable {

    private final String bootstrap;
    private final String keyPrefix;
    private final Deserializer<JobStatusRecord> statusDeserializer;
    private final Deserializer<JobTransition> transitionDeserializer;
    private final Map<String, List<JobStatusRecord>> statuses = new ConcurrentHashMap<>();
    private final Map<String, List<JobTransition>> transitions = new ConcurrentHashMap<>();
    private final Deserializer<JobFlowStatusRecord> flowStatusDeserializer;
    private final Map<String, List<JobFlowStatusRecord>> flowStatuses = new ConcurrentHashMap<>();
    /** Keys whose latest job-status record is a tombstone (the job was deleted). */
    private final Set<String> deletedJobs = ConcurrentHashMap.newKeySet();
    /** Keys whose latest flow-status record is a tombstone (the flow was deleted). */
    private final Set<String> deletedFlows = ConcurrentHashMap.newKeySet();

    private volatile RuntimeException failure;
    /** Whether a value that does not decode is passed over (a test wrote poison there) rather than a failure. */
    private volatile boolean skipUndecodable;

    private KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    TopicRecords(String bootstrap, RegistrySerdes serdes, String keyPrefix) {
        this.bootstrap = bootstrap;
        this.keyPrefix = keyPrefix;
        this.statusDeserializer = serdes.value(JobStatusRecord.class).deserializer();
        this.transitionDeserializer = serdes.value(JobTransition.class).deserializer();
        this.flowStatusDeserializer = serdes.value(JobFlowStatusRecord.class).deserializer();
    }

    /** Starts reading at the current end of both topics; returns once the position is taken. */
    void start() {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (Topics.TopicSpec topic : List.of(Topics.JOB_STATUS, Topics.JOB_TRANSITIONS, Topics.FLOW_STATUS)) {
            IntStream.range(0, topic.partitions()).forEach(p -> partitions.add(new TopicPartition(topic.name(), p)));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolve the end now, not lazily at the first poll
        thread = new Thread(this::poll, "system-tests-topic-records");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        try {
            while (true) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || !r.key().startsWith(keyPrefix)) {
                        continue;
                    }
                    if (r.value() == null) {
                        tombstone(r.topic(), r.key());
                        continue;
                    }
                    try {
                        add(r);
                    } catch (RuntimeException e) {
                        if (!skipUndecodable) {
                            throw e;
                        }
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void add(ConsumerRecord<String, byte[]> r) {
        if (r.topic().equals(Topics.FLOW_STATUS.name())) {
            deletedFlows.remove(r.key());
            flowStatuses
                    .computeIfAbsent(r.key(), k -> new CopyOnWriteArrayList<>())
                    .add(flowStatusDeserializer.deserialize(r.topic(), r.value()));
        } else if (r.topic().equals(Topics.JOB_STATUS.name())) {
            deletedJobs.remove(r.key());
            statuses.computeIfAbsent(r.key(), k -> new CopyOnWriteArrayList<>())
                    .add(statusDeserializer.deserialize(r.topic(), r.value()));
        } else {
            transitions
                    .computeIfAbsent(r.key(), k -> new CopyOnWriteArrayList<>())
                    .add(transitionDeserializer.deserialize(r.topic(), r.value()));
        }
    }

    /** From now on, a record that does not decode is passed over: the test writes poison on these topics. */
    void skipUndecodable() {
        skipUndecodable = true;
    }

    private void tombstone(String topic, String key) {
        if (topic.equals(Topics.JOB_STATUS.name())) {
            deletedJobs.add(key);
        } else if (topic.equals(Topics.FLOW_STATUS.name())) {
            deletedFlows.add(key);
        }
    }

    /** Whether the job's latest status record is a tombstone: the job was deleted. */
    boolean deleted(String key) {
        check();
        return deletedJobs.contains(key);
    }

    /** Every status record of the job so far (tombstones left out), in the order written. */
    List<JobStatusRecord> statuses(String key) {
        check();
        return List.copyOf(statuses.getOrDefault(key, List.of()));
    }

    /** The flow's latest status record. */
    Optional<JobFlowStatusRecord> flowStatus(String key) {
        check();
        List<JobFlowStatusRecord> all = flowStatuses.getOrDefault(key, List.of());
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    /** The phase of the flow's latest status record, or "(none)". */
    String flowPhase(String key) {
        return flowStatus(key).map(s -> s.getStatus().getState().getPhase()).orElse("(none)");
    }

    /** Whether the flow's latest status record is a tombstone: the flow was deleted. */
    boolean flowDeleted(String key) {
        check();
        return deletedFlows.contains(key);
    }

    /** The job's transitions so far, in the order written. */
    List<JobTransition> transitions(String key) {
        check();
        return List.copyOf(transitions.getOrDefault(key, List.of()));
    }

    /** The job's latest status record. */
    Optional<JobStatusRecord> status(String key) {
        check();
        List<JobStatusRecord> all = statuses.getOrDefault(key, List.of());
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    /** The phase of the job's latest status record, or "(none)". */
    String phase(String key) {
        return status(key).map(s -> s.getStatus().getState().getPhase()).orElse("(none)");
    }

    private void check() {
        if (failure != null) {
            throw new IllegalStateException("reading the job topics failed", failure);
        }
    }

    @Override
    public void close() {
        if (consumer != null && thread != null) {
            consumer.wakeup();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
