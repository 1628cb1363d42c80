package io.lahar.streams.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches one topic from its current end, committed records only (what a dashboard sees), on its
 * own thread, and notes the moment the wanted number of matching records has arrived: the end of
 * a timed run. Assigned, not subscribed, so no group rebalance sits inside the measurement.
 */
final class Arrivals implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final BiPredicate<String, byte[]> counts;
    private final long wanted;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long seen;
    private volatile long records;
    private volatile long doneNanos;
    private volatile Throwable failure;

    Arrivals(String bootstrap, String topic, long wanted, BiPredicate<String, byte[]> counts) {
        this.counts = counts;
        this.wanted = wanted;
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
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map((PartitionInfo p) -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // Resolve the end offsets now, before the clock starts.
        partitions.forEach(consumer::position);
        thread = new Thread(this::loop, "arrivals-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The loop only polls; the records are counted in {@link #count}. Why: every round starts a new
     * watcher thread, which enters this loop in the interpreter and has it compiled on the stack
     * (OSR) — with the whole per-record work inlined, the JIT spent a visible share of each timed
     * window's CPU on it, a cost of the harness taken from the topology's cores. A method of its own is
     * compiled once and shared by every later watcher.
     */
    private void loop() {
        try {
            while (running && doneNanos == 0) {
                count(consumer.poll(Duration.ofMillis(20)));
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void count(ConsumerRecords<String, byte[]> polled) {
        for (ConsumerRecord<String, byte[]> r : polled) {
            records++;
            if (counts.test(r.key(), r.value()) && ++seen == wanted) {
                doneNanos = System.nanoTime();
            }
        }
    }

    /**
     * Waits until the wanted records have arrived and returns the moment (System.nanoTime) the
     * last one was read; fails with what was seen when the timeout passes first.
     */
    long awaitDone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (doneNanos == 0) {
            if (failure != null) {
                throw new IllegalStateException("watching stopped: " + failure, failure);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + seen + " of " + wanted + " wanted records after " + timeout
                        + " (" + records + " records read)");
            }
            Thread.sleep(5);
        }
        return doneNanos;
    }

    /** Every record read so far, matching or not. */
    long records() {
        return records;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
        consumer.close(Duration.ofSeconds(5));
    }
}
