package io.lahar.streams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One side of the raw comparison: an input and an output topic of their own and as many
 * {@link RawPipe}s as the topology has stream threads, in one consumer group, running for the whole
 * benchmark — in this JVM or in one of their own ({@link RawLoopsProcess}), as the topology runs.
 * Between its rounds the loops only poll, as the idle stream thread does between the topology's:
 * both sides run side by side, so each round of the one is timed right after the same round of the
 * other, on the machine as it is that minute.
 */
final class RawLoops implements AutoCloseable {

    private final String bootstrap;
    private final String mode;
    private final String input;
    private final String output;
    private final Duration timeout;
    /** The loops when they run here; empty when {@link #process} runs them. */
    private final List<RawPipe> pipes;

    private final BenchProcess process;

    /**
     * Creates the topics and starts the loops; returns once the group gave them every input partition.
     *
     * @param run        the benchmark run's id (topic, group and transactional id names)
     * @param ownProcess whether the loops run in a JVM of their own
     */
    RawLoops(
            String bootstrap,
            String run,
            boolean transactional,
            int loops,
            int partitions,
            RawPipe.Cadence cadence,
            Duration timeout,
            boolean ownProcess)
            throws Exception {
        this.bootstrap = bootstrap;
        this.mode = mode(transactional);
        this.input = input(run, transactional);
        this.output = output(run, transactional);
        this.timeout = timeout;
        createTopics(partitions);
        if (ownProcess) {
            pipes = List.of();
            process = new BenchProcess(
                    "raw " + mode + " JVM",
                    RawLoopsProcess.class,
                    RawLoopsProcess.args(new RawLoopsProcess.Settings(
                            bootstrap, run, transactional, loops, partitions, cadence, timeout)),
                    timeout);
        } else {
            pipes = start(bootstrap, run, transactional, loops, partitions, cadence, timeout);
            process = null;
        }
    }

    static String mode(boolean transactional) {
        return transactional ? "tx" : "plain";
    }

    static String input(String run, boolean transactional) {
        return "bench-" + run + "-raw-in-" + mode(transactional);
    }

    static String output(String run, boolean transactional) {
        return "bench-" + run + "-raw-out-" + mode(transactional);
    }

    private void createTopics(int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(
                            new NewTopic(input, partitions, (short) 1), new NewTopic(output, partitions, (short) 1)))
                    .all()
                    .get();
            LifecycleBenchmark.await(timeout, "topics " + input + ", " + output, () -> {
                try {
                    return admin.describeTopics(List.of(input, output)).allTopicNames().get().values().stream()
                            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /** Starts the loops on the run's topics (which exist); returns once they hold every input partition. */
    static List<RawPipe> start(
            String bootstrap,
            String run,
            boolean transactional,
            int loops,
            int partitions,
            RawPipe.Cadence cadence,
            Duration timeout)
            throws Exception {
        String mode = mode(transactional);
        List<RawPipe> pipes = new ArrayList<>();
        try {
            for (int i = 0; i < loops; i++) {
                RawPipe pipe = new RawPipe(
                        bootstrap,
                        input(run, transactional),
                        output(run, transactional),
                        "bench-" + run + "-" + mode + "-" + i,
                        "bench-" + run + "-" + mode,
                        transactional,
                        cadence);
                pipes.add(pipe);
                pipe.start(timeout);
            }
            LifecycleBenchmark.await(
                    timeout,
                    "the raw " + mode + " loops to share the input's partitions",
                    () -> pipes.stream().allMatch(p -> p.partitions() > 0)
                            && pipes.stream().mapToInt(RawPipe::partitions).sum() == partitions);
            return pipes;
        } catch (Exception | Error e) {
            close(pipes);
            throw e;
        }
    }

    /** "tx" or "plain", for the log. */
    String mode() {
        return mode;
    }

    /** The JVM the loops run in, when it is not this one. */
    java.util.Optional<BenchProcess> process() {
        return java.util.Optional.ofNullable(process);
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
                if (process != null) throw new IllegalStateException(e.getMessage() + process.state(), e);
                Throwable failure = failure(pipes);
                throw failure == null ? e : new IllegalStateException("raw loop failed: " + failure, failure);
            }
            return new LifecycleBenchmark.Measurement(records.size(), (end - start) / 1e9, arrivals.records());
        }
    }

    @Override
    public void close() throws InterruptedException {
        close(pipes);
        if (process != null) process.close();
    }

    /** The first failure among the loops, null while they all run. */
    static Throwable failure(List<RawPipe> pipes) {
        return pipes.stream()
                .map(RawPipe::failure)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    static void close(List<RawPipe> pipes) throws InterruptedException {
        for (RawPipe pipe : pipes) {
            pipe.close();
        }
    }
}
