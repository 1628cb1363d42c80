package io.lahar.system.bench;

import io.lahar.schema.Bind;
import io.lahar.schema.CommandResult;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads what the system wrote about this run's namespace, read_committed as the services read it,
 * from the end of each topic when it started: Bind decisions, pod events, job transitions and
 * command results, into the {@link Tally}. Times are the records' own: the transition's time is the
 * time of the pod event that caused it (the bridge's clock when it saw the pod), the submit time the
 * command's; a Bind counts at its record's timestamp (when the scheduler wrote it).
 */
final class RunObserver implements AutoCloseable {

    private static final Set<String> FINISHED = Set.of("Succeeded", "Failed");

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, Deserializer<?>> values = new HashMap<>();
    private final String keyPrefix;
    private final Tally tally;
    private final Thread thread;
    private volatile boolean running = true;

    RunObserver(Map<String, Object> kafka, RegistrySerdes serdes, String namespace, Tally tally) {
        this.keyPrefix = namespace + "/";
        this.tally = tally;
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-system-observer");
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        values.put(Topics.SCHEDULER_DECISIONS.name(), deserializer(serdes, SchedulerDecision.class));
        values.put(Topics.POD_EVENTS.name(), deserializer(serdes, PodEvent.class));
        values.put(Topics.JOB_TRANSITIONS.name(), deserializer(serdes, JobTransition.class));
        values.put(Topics.COMMAND_RESULTS.name(), deserializer(serdes, CommandResult.class));
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : values.keySet()) {
            IntStream.range(0, Topics.JOB_PARTITIONS).forEach(p -> partitions.add(new TopicPartition(topic, p)));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // the end now, before anything of this run is written
        this.thread = new Thread(this::loop, "bench-system-observer");
    }

    private static Deserializer<?> deserializer(RegistrySerdes serdes, Class<? extends SpecificRecord> type) {
        return serdes.value(type).deserializer();
    }

    void start() {
        thread.start();
    }

    private void loop() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() != null && r.key().startsWith(keyPrefix) && r.value() != null) {
                        observe(r, values.get(r.topic()).deserialize(r.topic(), r.value()));
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void observe(ConsumerRecord<String, byte[]> r, Object value) {
        switch (value) {
            case SchedulerDecision d when d.getDecision() instanceof Bind -> tally.bound(r.timestamp());
            case PodEvent e when e.getDeleted() || FINISHED.contains(e.getPhase()) -> tally.podGone(e.getUid());
            case PodEvent e
            when "Running".equals(e.getPhase()) ->
                tally.podRunning(e.getUid(), e.getTime().toEpochMilli());
            case JobTransition t
            when "Running".equals(t.getTo()) && !"Running".equals(t.getFrom()) ->
                tally.jobRunning(t.getName(), t.getTime().toEpochMilli());
            case JobTransition t
            when "Completed".equals(t.getTo()) && !"Completed".equals(t.getFrom()) ->
                tally.jobCompleted(t.getTime().toEpochMilli());
            case CommandResult c when !c.getAccepted() -> tally.rejected(c.getName() + ": " + c.getViolations());
            default -> {}
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
