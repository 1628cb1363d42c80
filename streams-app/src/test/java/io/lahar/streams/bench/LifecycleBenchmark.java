package io.lahar.streams.bench;

import io.lahar.schema.CreatePod;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.LaharTopology;
import io.lahar.schema.TopicBootstrap;
import io.lahar.testkit.LaharInfra;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * The lifecycle benchmark (not a test: it never runs in {@code mvn verify}; {@code bin/bench-lifecycle}
 * runs it). N jobs × M pods through the real broker and registry: the real topology, with the
 * Kafka Streams settings of streams-app's application.properties (read from the classpath:
 * exactly_once_v2, its commit interval, its stream threads), folds 2·M pod events per job (every
 * pod Running, then Succeeded) into job status; the time runs from the first pod event sent to the
 * last job-status record showing Completed, read read_committed. Then the very same pod-event
 * records go through raw consume→produce loops on the same broker — as many loops as stream threads,
 * transactional with the same commit interval, and plain — timed the same way (first record sent to last record
 * read committed). Prints events/s of each and the ratio.
 *
 * <pre>
 *   LifecycleBenchmark [--jobs N] [--pods M] [--timeout SECONDS]
 * </pre>
 * It starts its own broker and registry (testkit), or uses running ones when the system
 * properties {@code lahar.kafka.bootstrap} and {@code lahar.registry.url} are set.
 */
public final class LifecycleBenchmark {

    private static final int PARTITIONS = Topics.JOB_PARTITIONS;

    private final String bootstrap;
    private final RegistrySerdes serdes;
    private final Workload workload;
    private final Duration timeout;
    private final Properties streamsConfig;
    /** The streams-app's commit interval: the raw transactional loop commits as often. */
    private final Duration commitInterval;
    /** The streams-app's stream threads: the raw test runs as many loops. */
    private final int threads;

    private LifecycleBenchmark(LaharInfra infra, Workload workload, Duration timeout) throws java.io.IOException {
        this.streamsConfig = streamsConfig();
        if (!StreamsConfig.EXACTLY_ONCE_V2.equals(streamsConfig.getProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))) {
            throw new IllegalStateException("the benchmark compares the topology with a transactional loop: it expects "
                    + "processing.guarantee=exactly_once_v2, the streams-app has " + streamsConfig);
        }
        this.threads = Integer.parseInt(streamsConfig.getProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1"));
        this.commitInterval = Duration.ofMillis(Long.parseLong(streamsConfig.getProperty(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)));
        this.bootstrap = infra.bootstrapServers();
        this.serdes = new RegistrySerdes(infra.registryUrl());
        this.workload = workload;
        this.timeout = timeout;
    }

    public static void main(String[] args) throws Exception {
        int jobs = 200;
        int pods = 8;
        int timeoutSeconds = 300;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jobs" -> jobs = positive(args, ++i);
                case "--pods" -> pods = positive(args, ++i);
                case "--timeout" -> timeoutSeconds = positive(args, ++i);
                default -> {
                    System.err.println("usage: LifecycleBenchmark [--jobs N] [--pods M] [--timeout SECONDS]"
                            + " (unknown argument: " + args[i] + ")");
                    System.exit(2);
                }
            }
        }
        // The test classpath's log manager has no configuration and would format the clients' DEBUG
        // and TRACE messages on the stream thread; the streams-app runs at Quarkus' INFO.
        org.jboss.logmanager.LogContext.getLogContext().getLogger("").setLevel(java.util.logging.Level.INFO);
        String run = UUID.randomUUID().toString().substring(0, 6);
        int status = 0;
        try {
            LaharInfra infra = LaharInfra.shared();
            Workload workload = new Workload(run, jobs, pods, 1_800_000_000_000L);
            new LifecycleBenchmark(infra, workload, Duration.ofSeconds(timeoutSeconds)).run();
        } catch (Exception e) {
            System.err.println("bench-lifecycle: failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        // Exits through the shutdown hooks, which stop a broker and registry started here.
        System.exit(status);
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        int value = Integer.parseInt(args[i]);
        if (value <= 0) {
            throw new IllegalArgumentException(args[i - 1] + " must be positive, not " + value);
        }
        return value;
    }

    private void run() throws Exception {
        long events = 2L * workload.jobs() * workload.pods();
        log("%d jobs x %d pods = %d pod events; broker %s", workload.jobs(), workload.pods(), events, bootstrap);
        TopicBootstrap.ensureTopics(bootstrap);

        Measurement topology;
        List<Workload.Keyed<byte[]>> records;
        Path stateDir = Files.createTempDirectory("lahar-bench-state");
        try (KafkaStreams streams = startStreams(stateDir);
             KafkaProducer<String, byte[]> producer = producer()) {
            Map<Integer, String> jobUids = admitJobs(producer);
            var serializer = serdes.value(PodEvent.class).serializer();
            records = workload.podEvents(jobUids).stream()
                    .map(e -> new Workload.Keyed<>(e.key(), serializer.serialize(Topics.POD_EVENTS.name(), e.value())))
                    .toList();
            topology = timeTopology(producer, records);
            log("%s", topology.line("topology (exactly_once_v2)"));
            streams.close(Duration.ofSeconds(30));
        }
        // The stream thread is stopped: the raw loops have the machine to themselves, as it had.
        Measurement tx = timeRawPipe(records, true);
        log("%s", tx.line("raw consume->produce, transactional"));
        Measurement plain = timeRawPipe(records, false);

        System.out.println();
        System.out.printf(Locale.ROOT, "lifecycle benchmark: %d jobs x %d pods, %d pod events (%.1f KB average), %d cores,"
                        + " %d stream thread(s) and as many raw loops, commit interval %d ms%n",
                workload.jobs(), workload.pods(), events,
                records.stream().mapToInt(r -> r.value().length).average().orElse(0) / 1024.0,
                Runtime.getRuntime().availableProcessors(), threads, commitInterval.toMillis());
        System.out.println(topology.line("topology (exactly_once_v2)"));
        System.out.println(tx.line("raw consume->produce, transactional"));
        System.out.println(plain.line("raw consume->produce, plain"));
        System.out.printf(Locale.ROOT, "ratio topology / raw transactional: %.2f%n", topology.rate() / tx.rate());
        System.out.printf(Locale.ROOT, "ratio topology / raw plain:         %.2f%n", topology.rate() / plain.rate());
    }

    /** One timed run: events folded, seconds, and the records its watcher read meanwhile. */
    private record Measurement(long events, double seconds, long recordsRead) {
        double rate() {
            return events / seconds;
        }

        String line(String what) {
            return String.format(Locale.ROOT, "%-38s %8d events in %7.3f s = %9.0f events/s  (%d output records read)",
                    what, events, seconds, rate(), recordsRead);
        }
    }

    private KafkaStreams startStreams(Path stateDir) throws InterruptedException, java.io.IOException {
        Properties props = new Properties();
        props.putAll(streamsConfig);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "lahar-bench-" + workload.run());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        log("Kafka Streams settings: %s", new java.util.TreeMap<>(props));
        KafkaStreams streams = new KafkaStreams(LaharTopology.build(serdes), props);
        streams.start();
        await("the topology to run", () -> streams.state() == KafkaStreams.State.RUNNING);
        log("topology running");
        return streams;
    }

    /**
     * The Kafka Streams settings of the streams-app itself: every {@code kafka-streams.*} line of its
     * application.properties (on this classpath), so the benchmark times the configuration that
     * ships; a system property {@code bench.streams.<setting>} overrides one, to try another.
     */
    static Properties streamsConfig() throws java.io.IOException {
        Properties app = new Properties();
        try (var in = LifecycleBenchmark.class.getClassLoader().getResourceAsStream("application.properties")) {
            if (in == null) {
                throw new IllegalStateException("streams-app's application.properties is not on the classpath");
            }
            app.load(in);
        }
        Properties props = new Properties();
        app.stringPropertyNames().stream().filter(k -> k.startsWith("kafka-streams."))
                .forEach(k -> props.put(k.substring("kafka-streams.".length()), app.getProperty(k)));
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("bench.streams."))
                .forEach(k -> props.put(k.substring("bench.streams.".length()), System.getProperty(k)));
        return props;
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Not timed: submits every job, answers each Pending pod group Inqueue as the scheduler would,
     * and waits for every pod's CreatePod intent, so each job runs its pods when the events come.
     * Returns each job's uid (the pod events carry it, as the bridge's do).
     */
    private Map<Integer, String> admitJobs(KafkaProducer<String, byte[]> producer) throws InterruptedException {
        var commands = serdes.value(JobCommand.class).serializer();
        for (int i = 0; i < workload.jobs(); i++) {
            producer.send(new ProducerRecord<>(Topics.JOB_COMMANDS.name(), workload.key(i),
                    commands.serialize(Topics.JOB_COMMANDS.name(), workload.submit(i))));
        }
        producer.flush();

        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < workload.jobs(); i++) {
            index.put(workload.key(i), i);
        }
        Map<Integer, String> jobUids = new HashMap<>();
        var decisions = serdes.value(SchedulerDecision.class).serializer();
        readAll(Topics.POD_GROUPS.name(), serdes.value(PodGroup.class).deserializer(), (key, group) -> {
            if (group != null && group.getStatus().getPhase().equals("Pending") && !jobUids.containsKey(index.get(key))) {
                int i = index.get(key);
                jobUids.put(i, group.getJobUid());
                producer.send(new ProducerRecord<>(Topics.SCHEDULER_DECISIONS.name(), key,
                        decisions.serialize(Topics.SCHEDULER_DECISIONS.name(), workload.inqueue(i, group.getName()))));
            }
        }, () -> jobUids.size() == workload.jobs(), "every job's Pending pod group");
        producer.flush();
        log("%d jobs admitted, their pod groups Inqueue", jobUids.size());

        Set<String> created = new HashSet<>();
        readAll(Topics.POD_INTENTS.name(), serdes.value(PodIntent.class).deserializer(), (key, intent) -> {
            if (intent != null && intent.getIntent() instanceof CreatePod create) {
                created.add(create.getPod());
            }
        }, () -> created.size() == workload.jobs() * workload.pods(), "every pod's CreatePod intent");
        log("%d pods created", created.size());
        return jobUids;
    }

    /** Reads a topic from its start (committed records of this run only) until {@code done}. */
    private <T> void readAll(String topic, Deserializer<T> values, BiConsumer<String, T> each, BooleanSupplier done,
                             String what) throws InterruptedException {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    if (workload.owns(r.key())) {
                        each.accept(r.key(), r.value() == null ? null : values.deserialize(topic, r.value()));
                    }
                }
            }
        }
    }

    private Measurement timeTopology(KafkaProducer<String, byte[]> producer, List<Workload.Keyed<byte[]>> records)
            throws InterruptedException {
        Deserializer<JobStatusRecord> statuses = serdes.value(JobStatusRecord.class).deserializer();
        Set<String> completed = new HashSet<>();
        try (Arrivals arrivals = new Arrivals(bootstrap, Topics.JOB_STATUS.name(), workload.jobs(), (key, value) ->
                workload.owns(key) && value != null
                        && statuses.deserialize(Topics.JOB_STATUS.name(), value).getStatus().getState().getPhase().equals("Completed")
                        && completed.add(key))) {
            log("timing the topology: %d pod events", records.size());
            long start = send(producer, Topics.POD_EVENTS.name(), records);
            long end = arrivals.awaitDone(timeout);
            return new Measurement(records.size(), (end - start) / 1e9, arrivals.records());
        }
    }

    private Measurement timeRawPipe(List<Workload.Keyed<byte[]>> records, boolean transactional) throws Exception {
        String mode = transactional ? "tx" : "plain";
        String input = "bench-" + workload.run() + "-raw-in-" + mode;
        String output = "bench-" + workload.run() + "-raw-out-" + mode;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(input, PARTITIONS, (short) 1), new NewTopic(output, PARTITIONS, (short) 1)))
                    .all().get();
            await("topics " + input + ", " + output, () -> {
                try {
                    return admin.describeTopics(List.of(input, output)).allTopicNames().get().values().stream()
                            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
                } catch (Exception e) {
                    return false;
                }
            });
        }
        // As many loops as the topology has stream threads, in one group: like with like.
        List<RawPipe> pipes = new java.util.ArrayList<>();
        try (Arrivals arrivals = new Arrivals(bootstrap, output, records.size(), (key, value) -> true);
             KafkaProducer<String, byte[]> producer = producer()) {
            for (int i = 0; i < threads; i++) {
                RawPipe pipe = new RawPipe(bootstrap, input, output, "bench-" + workload.run() + "-" + mode + "-" + i,
                        "bench-" + workload.run() + "-" + mode, transactional, commitInterval);
                pipes.add(pipe);
                pipe.start(timeout);
            }
            await("the raw loops to share the input's partitions", () -> pipes.stream().allMatch(p -> p.partitions() > 0)
                    && pipes.stream().mapToInt(RawPipe::partitions).sum() == PARTITIONS);
            // Warm the producer's metadata for the input topic, as the topology run's producer was.
            producer.partitionsFor(input);
            log("timing the raw %s loop x %d: %d records", mode, threads, records.size());
            long start = send(producer, input, records);
            long end;
            try {
                end = arrivals.awaitDone(timeout);
            } catch (IllegalStateException e) {
                Throwable failure = pipes.stream().map(RawPipe::failure).filter(java.util.Objects::nonNull).findFirst().orElse(null);
                throw failure == null ? e : new IllegalStateException("raw loop failed: " + failure, failure);
            }
            return new Measurement(records.size(), (end - start) / 1e9, arrivals.records());
        } finally {
            for (RawPipe pipe : pipes) {
                pipe.close();
            }
        }
    }

    /** Sends every record as fast as the producer takes them; returns when the first was sent. */
    private static long send(KafkaProducer<String, byte[]> producer, String topic, List<Workload.Keyed<byte[]>> records) {
        long start = System.nanoTime();
        for (Workload.Keyed<byte[]> r : records) {
            producer.send(new ProducerRecord<>(topic, r.key(), r.value()));
        }
        producer.flush();
        return start;
    }

    private void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "bench-lifecycle: " + format + "%n", args);
    }
}
