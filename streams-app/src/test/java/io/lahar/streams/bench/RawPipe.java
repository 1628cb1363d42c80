package io.lahar.streams.bench;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The raw broker's rate for the same records: a plain consume→produce loop copying bytes from
 * one topic to another on one thread; the benchmark runs as many loops, in one consumer group, as
 * the streams app has stream threads. Transactional,
 * it does what exactly_once_v2 does at the broker — a transaction per commit interval, the input
 * offsets sent in it — without decoding, state or logic; non-transactional, it commits offsets
 * asynchronously after each poll.
 */
final class RawPipe implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final String output;
    private final boolean transactional;
    private final long commitIntervalNanos;
    private final Duration poll;
    private final Thread thread;
    private final CountDownLatch assigned = new CountDownLatch(1);
    /** How many input partitions the group gives this loop now (several loops share the input). */
    private volatile int partitions;

    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * How often a loop commits and how long it waits in poll when nothing is buffered: the topology's
     * {@code commit.interval.ms} and {@code poll.ms}, so both sides end a burst alike (each looks
     * whether a commit is due only when a poll returns).
     */
    record Cadence(Duration commitInterval, Duration poll) {}

    /**
     * @param id    this loop's transactional id (and thread name)
     * @param group the consumer group, shared by the loops of one run
     */
    RawPipe(
            String bootstrap,
            String input,
            String output,
            String id,
            String group,
            boolean transactional,
            Cadence cadence) {
        this.output = output;
        this.transactional = transactional;
        this.commitIntervalNanos = cadence.commitInterval().toNanos();
        this.poll = cadence.poll();
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        group,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        Map<String, Object> producerConfig = new HashMap<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"));
        if (transactional) {
            producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        }
        producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        if (transactional) {
            producer.initTransactions();
        }
        consumer.subscribe(List.of(input), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                partitions = 0;
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> given) {
                partitions = given.size();
                assigned.countDown();
            }
        });
        thread = new Thread(this::loop, "raw-pipe-" + id);
        thread.setDaemon(true);
    }

    /** Starts the loop and returns once the consumer group gave it the input's partitions. */
    void start(Duration timeout) throws InterruptedException {
        thread.start();
        if (!assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("raw pipe: no partitions assigned within " + timeout);
        }
    }

    private void loop() {
        Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
        boolean inTransaction = false;
        long transactionStart = 0;
        try {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(poll);
                if (!records.isEmpty() && transactional && !inTransaction) {
                    producer.beginTransaction();
                    inTransaction = true;
                    transactionStart = System.nanoTime();
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    producer.send(new ProducerRecord<>(output, r.key(), r.value()), (metadata, e) -> {
                        // A lost copy would only show as a count that never completes: say why.
                        if (e != null && failure == null) {
                            failure = e;
                        }
                    });
                    pending.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                if (transactional) {
                    if (inTransaction && System.nanoTime() - transactionStart >= commitIntervalNanos) {
                        producer.sendOffsetsToTransaction(Map.copyOf(pending), consumer.groupMetadata());
                        producer.commitTransaction();
                        pending.clear();
                        inTransaction = false;
                    }
                } else if (!pending.isEmpty()) {
                    consumer.commitAsync(Map.copyOf(pending), null);
                    pending.clear();
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** Input partitions this loop holds now. */
    int partitions() {
        return partitions;
    }

    /** The loop's failure, if it stopped on one. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        producer.close(Duration.ofSeconds(5));
        consumer.close(Duration.ofSeconds(5));
    }
}
