package io.lahar.console.feed;

import io.lahar.console.view.ConsoleViews;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * Reads the public topics into {@link ConsoleViews}: one thread, one consumer of every partition
 * from its beginning (no consumer group: the views are rebuilt at every start, as any new reader of
 * the compacted topics would), {@code read_committed} like every reader of an exactly-once writer.
 *
 * <p>A record that does not decode is handed to the views as undecodable and reading goes on; a
 * registry that does not answer is not the record's fault, so that record's partition is read again
 * from it after a pause. Topics that do not exist yet are looked for again every few seconds.
 */
public final class TopicFeed implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TopicFeed.class);
    /** The topics a dashboard reads, with the generated class of their values. */
    static final Map<Topics.TopicSpec, Class<? extends SpecificRecord>> TOPICS = Map.of(
            Topics.JOB_STATUS, JobStatusRecord.class,
            Topics.JOB_TRANSITIONS, JobTransition.class,
            Topics.POD_EVENTS, PodEvent.class,
            Topics.POD_GROUPS, PodGroup.class,
            Topics.QUEUES, Queue.class,
            Topics.QUEUE_STATUS, QueueStatus.class,
            Topics.NODES, Node.class,
            Topics.FLOW_STATUS, JobFlowStatusRecord.class,
            Topics.DEAD_LETTERS, DeadLetter.class,
            Topics.COMMAND_RESULTS, CommandResult.class);

    private static final Duration LOOK_AGAIN = Duration.ofSeconds(5);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, Deserializer<? extends SpecificRecord>> deserializers = new HashMap<>();
    private final ConsoleViews views;
    private final Map<TopicPartition, Long> startEnds = new HashMap<>();
    private final Set<String> found = new HashSet<>();
    private final Thread thread;
    private volatile boolean caughtUp;
    private volatile boolean running = true;
    private long nextLook;

    public TopicFeed(KafkaClients kafka, RegistrySerdes serdes, ConsoleViews views) {
        this.views = views;
        TOPICS.forEach((topic, type) ->
                deserializers.put(topic.name(), serdes.value(type).deserializer()));
        this.consumer = kafka.consumer(
                Map.of(
                        ConsumerConfig.CLIENT_ID_CONFIG, "lahar-console",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        this.nextLook = System.nanoTime();
        this.thread = new Thread(this::run, "console-feed");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Whether every topic exists and was read up to where it ended when the console found it. */
    public boolean caughtUp() {
        return caughtUp;
    }

    private void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    LOG.error("reading the public topics failed; trying again", e);
                    sleep(RETRY_PAUSE);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** One poll: topics looked for when some are missing, records applied, catching up noted. */
    private void step() {
        if (found.size() < TOPICS.size() && System.nanoTime() - nextLook >= 0) {
            lookForTopics();
        }
        if (consumer.assignment().isEmpty()) {
            sleep(Duration.ofMillis(500));
            return;
        }
        ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
        if (!records.isEmpty() && !apply(records)) {
            sleep(RETRY_PAUSE);
        }
        if (!caughtUp && found.size() == TOPICS.size() && reachedStartEnds()) {
            caughtUp = true;
            LOG.infof("read every public topic up to its end at start-up: %s", views.counts());
        }
    }

    /** Applies the records; false when some partition must be read again (the registry was away). */
    private boolean apply(ConsumerRecords<String, byte[]> records) {
        List<ConsoleViews.Input> batch = new ArrayList<>(records.count());
        Map<TopicPartition, Long> retry = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (retry.containsKey(tp)) {
                continue;
            }
            try {
                Object value =
                        r.value() == null ? null : deserializers.get(r.topic()).deserialize(r.topic(), r.value());
                batch.add(new ConsoleViews.Input(
                        r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), value, null));
            } catch (RuntimeException e) {
                if (Transients.isTransient(e)) {
                    LOG.warnf(
                            "the schema registry did not answer for %s/%d@%d; reading it again: %s",
                            r.topic(), r.partition(), r.offset(), e);
                    retry.put(tp, r.offset());
                } else {
                    batch.add(new ConsoleViews.Input(
                            r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), null, describe(e)));
                }
            }
        }
        views.apply(batch);
        retry.forEach(consumer::seek);
        return retry.isEmpty();
    }

    /** The exception and its causes in one line, at most 600 characters. */
    public static String describe(Throwable e) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = e; c != null && s.length() < 600; c = c.getCause() == c ? null : c.getCause()) {
            if (!s.isEmpty()) {
                s.append(": ");
            }
            s.append(c.getClass().getSimpleName());
            if (c.getMessage() != null) {
                s.append(" ").append(c.getMessage());
            }
        }
        return s.length() > 600 ? s.substring(0, 600) : s.toString();
    }

    private void lookForTopics() {
        nextLook = System.nanoTime() + LOOK_AGAIN.toNanos();
        Map<String, List<PartitionInfo>> existing = consumer.listTopics(Duration.ofSeconds(10));
        List<TopicPartition> added = new ArrayList<>();
        for (Topics.TopicSpec topic : TOPICS.keySet()) {
            List<PartitionInfo> partitions = existing.get(topic.name());
            if (found.contains(topic.name()) || partitions == null || partitions.isEmpty()) {
                continue;
            }
            found.add(topic.name());
            partitions.forEach(p -> added.add(new TopicPartition(p.topic(), p.partition())));
        }
        if (added.isEmpty()) {
            if (found.size() < TOPICS.size()) {
                LOG.debugf("waiting for topics; found %s", found);
            }
            return;
        }
        List<TopicPartition> all = new ArrayList<>(consumer.assignment());
        all.addAll(added);
        consumer.assign(all);
        consumer.seekToBeginning(added);
        startEnds.putAll(consumer.endOffsets(added));
    }

    private boolean reachedStartEnds() {
        for (Map.Entry<TopicPartition, Long> e : startEnds.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
