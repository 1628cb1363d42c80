package io.lahar.streams.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One side of the raw comparison: an input and an output topic of their own and as many
 * {@link RawPipe}s as the topology has stream threads, in one consumer group, running for the whole
 * benchmark. Between its rounds the loops only poll, as the idle stream thread does between the
 * topology's: both sides run side by side in one JVM, so each round of the one is timed right after
 * the same round of the other, on the machine as it is that minute.
 */
final class RawLoops implements AutoCloseable {

    private final String bootstrap;
    private final String mode;
    private final String input;
    private final String output;
    private final List<RawPipe> pipes = new ArrayList<>();
    private final Duration timeout;

    /**
     * Creates the topics and starts the loops; returns once the group gave them every input partition.
     *
     * @param run the benchmark run's id (topic, group and transactional id names)
     */
    RawLoops(String bootstrap, String run, boolean transactional, int loops, int partitions, Duration commitInterval,
             Duration timeout) throws Exception {
        this.bootstrap = bootstrap;
        this.mode = transactional ? "tx" : "plain";
        this.input = "bench-" + run + "-raw-in-" + mode;
        this.output = "bench-" + run + "-raw-out-" + mode;
        this.timeout = timeout;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(input, partitions, (short) 1), new NewTopic(output, partitions, (short) 1)))
                    .all().get();
            LifecycleBenchmark.await(timeout, "topics " + input + ", " + output, () -> {
                try {
                    return admin.describeTopics(List.of(input, output)).allTopicNames().get().values().stream()
                            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
                } catch (Exception e) {
                    return false;
                }
            });
        }
        try {
            for (int i = 0; i < loops; i++) {
                RawPipe pipe = new RawPipe(bootstrap, input, output, "bench-" + run + "-" + mode + "-" + i,
                        "bench-" + run + "-" + mode, transactional, commitInterval);
                pipes.add(pipe);
                pipe.start(timeout);
            }
            LifecycleBenchmark.await(timeout, "the raw " + mode + " loops to share the input's partitions",
                    () -> pipes.stream().allMatch(p -> p.partitions() > 0)
                            && pipes.stream().mapToInt(RawPipe::partitions).sum() == partitions);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** "tx" or "plain", for the log. */
    String mode() {
        return mode;
    }

    /** Sends {@code records} through the loops, timed from the first sent to the last copy read (read_committed). */
    LifecycleBenchmark.Measurement time(KafkaProducer<String, byte[]> producer, List<Workload.Keyed<byte[]>> records)
            throws InterruptedException {
        // The producer's metadata for the input, as the topology's producer has its topic's.
        producer.partitionsFor(input);
        try (Arrivals arrivals = new Arrivals(bootstrap, output, records.size(), (key, value) -> true)) {
            long start = LifecycleBenchmark.send(producer, input, records);
            long end;
            try {
                end = arrivals.awaitDone(timeout);
            } catch (IllegalStateException e) {
                Throwable failure = pipes.stream().map(RawPipe::failure).filter(Objects::nonNull).findFirst().orElse(null);
                throw failure == null ? e : new IllegalStateException("raw loop failed: " + failure, failure);
            }
            return new LifecycleBenchmark.Measurement(records.size(), (end - start) / 1e9, arrivals.records());
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (RawPipe pipe : pipes) {
            pipe.close();
        }
    }
}
