package io.lahar.scheduler.bench;

import io.lahar.schema.Bind;
import io.lahar.schema.PodEvent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The benchmark's cluster side: reads the decisions topic read_committed (a decision counts once
 * its transaction is committed, as the bridge sees it), notes when each {@code Bind} of the
 * measured loop's epoch arrives and, when confirming, answers it with the pod event a kubelet
 * would cause (phase Running on the bound node), which releases the loop's
 * max-unconfirmed-bindings cap as a real cluster would.
 */
final class Kubelet implements Runnable, AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final Deserializer<SchedulerDecision> decisions;
    private final Serializer<PodEvent> events;
    private final long epoch;
    private final boolean confirm;
    private final Set<String> bound = new HashSet<>();
    private volatile int binds;
    private volatile int duplicates;
    private volatile int confirmed;
    private volatile long firstBind;
    private volatile long lastBind;
    private volatile boolean stopped;

    Kubelet(String bootstrap, RegistrySerdes serdes, long epoch, boolean confirm) {
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        this.producer = BenchWorkload.producer(bootstrap);
        this.decisions = serdes.value(SchedulerDecision.class).deserializer();
        this.events = serdes.value(PodEvent.class).serializer();
        this.epoch = epoch;
        this.confirm = confirm;
    }

    /** Assigns every partition of the decisions topic at its end; returns once positioned. */
    void positioned() {
        String topic = Topics.SCHEDULER_DECISIONS.name();
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolves the end now, before anything is timed
    }

    @Override
    public void run() {
        String topic = Topics.POD_EVENTS.name();
        try {
            while (!stopped) {
                boolean sent = false;
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    if (r.value() == null) continue;
                    SchedulerDecision d = decisions.deserialize(r.topic(), r.value());
                    if (d.getEpoch() != epoch || !(d.getDecision() instanceof Bind b)) continue;
                    long now = System.nanoTime();
                    if (!bound.add(b.getPod())) {
                        duplicates++;
                        continue;
                    }
                    if (firstBind == 0) firstBind = now;
                    lastBind = now;
                    binds++;
                    if (confirm) {
                        PodEvent e = PodEvent.newBuilder()
                                .setNamespace(d.getNamespace())
                                .setJob(d.getJob())
                                .setPod(b.getPod())
                                .setTask("worker")
                                .setIndex(0)
                                .setJobVersion(b.getJobVersion())
                                .setPhase("Running")
                                .setNode(b.getNode())
                                .setTime(Instant.now())
                                .build();
                        producer.send(new ProducerRecord<>(topic, r.key(), events.serialize(topic, e)));
                        confirmed++;
                        sent = true;
                    }
                }
                if (sent) producer.flush();
            }
        } catch (WakeupException e) {
            // stopped
        } finally {
            consumer.close();
        }
    }

    int binds() {
        return binds;
    }

    int duplicates() {
        return duplicates;
    }

    int confirmed() {
        return confirmed;
    }

    long firstBindNanos() {
        return firstBind;
    }

    long lastBindNanos() {
        return lastBind;
    }

    void stop() {
        stopped = true;
        consumer.wakeup();
    }

    @Override
    public void close() {
        stop();
        // The run thread owns the consumer; it is closed after that thread ends.
        producer.close();
    }
}
