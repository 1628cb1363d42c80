package io.lahar.streams.bench;

import io.lahar.schema.CreatePod;
import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The lifecycle benchmark (not a test: it never runs in {@code mvn verify}; {@code bin/bench-lifecycle}
 * runs it). N jobs × M pods through the real broker and registry: the real topology, with the
 * Kafka Streams settings of streams-app's application.properties (read from the classpath:
 * exactly_once_v2, its commit interval, its stream threads), folds 2·M pod events per job (every
 * pod Running, then Succeeded) into job status; the time runs from the first pod event sent to the
 * last job-status record showing Completed, read read_committed. Right after, the very same pod-event
 * records go through raw consume→produce loops on the same broker — as many loops as stream threads,
 * transactional with the same commit interval, and plain — timed the same way (first record sent to last record
 * read committed). A run is rounds of fresh jobs: warm-up rounds, then measured ones, each through
 * the topology and then the raw loops (see {@link #run}); it prints events/s of each round, the
 * medians and their ratio, each round's own ratio, and per measured topology round where the JVM's
 * CPU went and the Kafka Streams client's totals, and per measured round the cores' time the
 * hypervisor stole ({@link ProcessCpu}). All in this JVM; with {@code --separate-jvms} the
 * topology runs in a JVM of its own, as the streams-app is deployed, and each raw side in one of
 * its own ({@link BenchProcess}), this JVM only sending and watching — each JVM's JIT then warms
 * on its own traffic alone, so that needs more warm-up rounds (docs/BENCHMARKS.md).
 *
 * <pre>
 *   LifecycleBenchmark [--jobs N] [--pods M] [--warmup ROUNDS] [--rounds ROUNDS] [--timeline | --separate-jvms]
 *                      [--gc-between-rounds] [--interleave] [--timeout SECONDS]
 * </pre>
 * Defaults: 1000 jobs × 8 pods, warm-up rounds for 128k pod events ({@link #defaultWarmUpRounds}),
 * 3 measured rounds; {@code --timeline} samples the stream thread's totals every 50 ms;
 * {@code --gc-between-rounds} collects this JVM's heap ({@code System.gc()}, untimed) before each
 * measured side, so no side pays for what the heap held before it — the harness's own records of
 * the round, the admission's garbage, a full collection that happens to fall due — and neither
 * does it pay, then, for the full collections its own promotions would bring. {@code --interleave}
 * sends one pod of each job in turn rather than each job's pods together ({@link Workload#podEvents}).
 * It starts its own broker and registry (testkit), or uses running ones when the system
 * properties {@code lahar.kafka.bootstrap} and {@code lahar.registry.url} are set.
 */
public final class LifecycleBenchmark {

    private static final int PARTITIONS = Topics.JOB_PARTITIONS;

    private final String bootstrap;
    private final RegistrySerdes serdes;
    /** The run's id and size; each round's jobs are named after it (see {@link #round}). */
    private final Workload workload;

    private final int warmUpRounds;
    private final int rounds;
    /** Whether to sample the stream thread's totals every 50 ms in measured rounds and print them. */
    private final boolean timeline;
    /** Whether each measured side starts on a collected heap ({@code --gc-between-rounds}). */
    private final boolean gcBetweenRounds;
    /** Whether the topology and each raw side run in JVMs of their own rather than in this one. */
    private final boolean separateJvms;

    private final String registryUrl;
    private static final long T0 = 1_800_000_000_000L;
    private final Duration timeout;
    /** The streams-app's commit interval and poll wait: the raw loops commit as often and wait as long. */
    private final RawPipe.Cadence cadence;
    /** The streams-app's stream threads: the raw test runs as many loops. */
    private final int threads;
    /**
     * The processes whose CPU each measured round reports: this JVM, the topology's and the raw
     * loops' when they have their own, and the broker and registry when started here.
     */
    private final Map<String, Long> processes = new java.util.LinkedHashMap<>();

    private LifecycleBenchmark(
            LaharInfra infra,
            Workload workload,
            int warmUpRounds,
            int rounds,
            boolean separateJvms,
            boolean timeline,
            boolean gcBetweenRounds,
            Duration timeout)
            throws java.io.IOException {
        Properties streamsConfig = streamsConfig();
        if (!StreamsConfig.EXACTLY_ONCE_V2.equals(
                streamsConfig.getProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))) {
            throw new IllegalStateException("the benchmark compares the topology with a transactional loop: it expects "
                    + "processing.guarantee=exactly_once_v2, the streams-app has " + streamsConfig);
        }
        this.threads = Integer.parseInt(streamsConfig.getProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1"));
        this.cadence = new RawPipe.Cadence(
                Duration.ofMillis(Long.parseLong(streamsConfig.getProperty(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))),
                // 100 ms: Kafka Streams' own poll.ms, if the streams-app's settings leave it out.
                Duration.ofMillis(Long.parseLong(streamsConfig.getProperty(StreamsConfig.POLL_MS_CONFIG, "100"))));
        this.bootstrap = infra.bootstrapServers();
        this.registryUrl = infra.registryUrl();
        this.serdes = new RegistrySerdes(registryUrl);
        processes.put("this JVM", ProcessHandle.current().pid());
        infra.broker().ifPresent(b -> processes.put("kafka broker", b.pid()));
        infra.registry().ifPresent(r -> processes.put("registry", r.pid()));
        this.workload = workload;
        this.warmUpRounds = warmUpRounds;
        this.rounds = rounds;
        this.separateJvms = separateJvms;
        this.timeline = timeline;
        this.gcBetweenRounds = gcBetweenRounds;
        this.timeout = timeout;
    }

    /** With {@code --gc-between-rounds}: a measured side starts on a collected heap (the collection is not timed). */
    private void settleHeap() {
        if (gcBetweenRounds) {
            System.gc();
        }
    }

    public static void main(String[] args) throws Exception {
        int jobs = 1000;
        int pods = 8;
        int timeoutSeconds = 300;
        Integer warmUpRounds = null;
        int rounds = 3;
        boolean timeline = false;
        boolean separateJvms = false;
        boolean gcBetweenRounds = false;
        boolean interleaved = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jobs" -> jobs = positive(args, ++i);
                case "--pods" -> pods = positive(args, ++i);
                case "--warmup" -> warmUpRounds = notNegative(args, ++i);
                case "--rounds" -> rounds = positive(args, ++i);
                case "--timeline" -> timeline = true;
                case "--separate-jvms" -> separateJvms = true;
                case "--gc-between-rounds" -> gcBetweenRounds = true;
                case "--interleave" -> interleaved = true;
                case "--timeout" -> timeoutSeconds = positive(args, ++i);
                default -> {
                    System.err.println(USAGE + " (unknown argument: " + args[i] + ")");
                    System.exit(2);
                }
            }
        }
        if (timeline && separateJvms) {
            // The timeline samples the Kafka Streams client's metrics, which only a client in this JVM has.
            System.err.println(USAGE + " (--timeline needs the topology in this JVM: not with --separate-jvms)");
            System.exit(2);
        }
        if (gcBetweenRounds && separateJvms) {
            // Only this JVM's heap can be collected from here.
            System.err.println(USAGE + " (--gc-between-rounds collects this JVM's heap: not with --separate-jvms)");
            System.exit(2);
        }
        quietClientLogs();
        String run = UUID.randomUUID().toString().substring(0, 6);
        int status = 0;
        try {
            LaharInfra infra = LaharInfra.shared();
            int warmUp = warmUpRounds != null ? warmUpRounds : defaultWarmUpRounds(2L * jobs * pods);
            new LifecycleBenchmark(
                            infra,
                            new Workload(run, jobs, pods, T0, interleaved),
                            warmUp,
                            rounds,
                            separateJvms,
                            timeline,
                            gcBetweenRounds,
                            Duration.ofSeconds(timeoutSeconds))
                    .run();
        } catch (Exception e) {
            System.err.println("bench-lifecycle: failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        // Exits through the shutdown hooks, which stop a broker and registry started here.
        System.exit(status);
    }

    private static final String USAGE =
            "usage: LifecycleBenchmark [--jobs N] [--pods M] [--warmup ROUNDS] [--rounds ROUNDS]"
                    + " [--timeline | --separate-jvms] [--gc-between-rounds] [--interleave] [--timeout SECONDS]";

    /**
     * The test classpath's log manager has no configuration and would format the clients' DEBUG and
     * TRACE messages on the stream thread; the streams-app runs at Quarkus' INFO.
     */
    static void quietClientLogs() {
        org.jboss.logmanager.LogContext.getLogContext().getLogger("").setLevel(java.util.logging.Level.INFO);
    }

    /**
     * Enough warm-up rounds for {@value #WARM_UP_EVENTS} pod events (2 to 20 rounds): measured on this
     * machine, the JIT's compiler threads still used more CPU than the stream thread in the third to
     * fifth rounds of a small run, and settled only after about this many pod events.
     */
    static int defaultWarmUpRounds(long eventsPerRound) {
        return (int) Math.max(2, Math.min(20, (WARM_UP_EVENTS + eventsPerRound - 1) / eventsPerRound));
    }

    private static final long WARM_UP_EVENTS = 128_000;

    private static int notNegative(String[] args, int i) {
        return i < args.length && "0".equals(args[i]) ? 0 : positive(args, i);
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

    /** The jobs of one round: the run's size, names of their own. */
    private Workload round(String tag) {
        return workload.renamed(workload.run() + tag);
    }

    /**
     * Warm-up rounds, then measured rounds, each of fresh jobs; each round goes through the topology,
     * then the same records through the raw transactional loops, then the plain ones, so the three
     * figures of a round are taken within seconds of each other (a shared machine's speed drifts over
     * minutes; timing every topology round before every raw one let that drift into the ratio).
     * The figures are the medians of the measured rounds, and each round's own ratio. Why the
     * warm-up: the first pod events a JVM folds run interpreted while the JIT compiles the lifecycle,
     * the serdes and the clients on the same two cores (C2 compiled {@code JobEngine.apply} and
     * {@code emit} only after tens of thousands of pod events, and the compiler threads outspent the
     * stream thread for longer still), and the broker warms its transactional produce path
     * meanwhile; measured cold, the topology paid for all of that, the raw loops after it, in the JVM
     * it had warmed, did not.
     */
    private void run() throws Exception {
        long events = 2L * workload.jobs() * workload.pods();
        log(
                "%d jobs x %d pods = %d pod events a round, %d warm-up and %d measured rounds; broker %s",
                workload.jobs(), workload.pods(), events, warmUpRounds, rounds, bootstrap);
        TopicBootstrap.ensureTopics(bootstrap);
        overrideTopicConfigs();

        List<Measurement> topology = new java.util.ArrayList<>();
        List<Measurement> tx = new java.util.ArrayList<>();
        List<Measurement> plain = new java.util.ArrayList<>();
        double averageRecordSize = 0;
        Path stateDir = Files.createTempDirectory("lahar-bench-state");
        try (RawLoops txLoops = new RawLoops(
                        bootstrap, workload.run(), true, threads, PARTITIONS, cadence, timeout, separateJvms);
                RawLoops plainLoops = new RawLoops(
                        bootstrap, workload.run(), false, threads, PARTITIONS, cadence, timeout, separateJvms);
                RunningTopology topologyRun = startTopology(stateDir);
                KafkaProducer<String, byte[]> producer = producer()) {
            topologyRun.process().ifPresent(p -> processes.put(p.name(), p.pid()));
            for (RawLoops loops : List.of(txLoops, plainLoops)) {
                loops.process().ifPresent(p -> processes.put(p.name(), p.pid()));
            }
            for (int w = 1; w <= warmUpRounds; w++) {
                Workload jobs = round("w" + w);
                List<Workload.Keyed<byte[]>> records = podEvents(new Round(jobs, admitJobs(producer, jobs)));
                String round = "warm-up " + w + "/" + warmUpRounds + ": ";
                log("%s", timeTopology(producer, records, jobs, null).line(round + "topology"));
                log("%s", txLoops.time(producer, records).line(round + "raw tx"));
                log("%s", plainLoops.time(producer, records).line(round + "raw plain"));
            }
            for (int r = 1; r <= rounds; r++) {
                Workload jobs = round("m" + r);
                List<Workload.Keyed<byte[]>> records = podEvents(new Round(jobs, admitJobs(producer, jobs)));
                String round = "round " + r + "/" + rounds + ": ";
                settleHeap();
                ClientMetricsDelta metrics = topologyRun
                        .streams()
                        .map(s -> new ClientMetricsDelta(s::metrics))
                        .orElse(null);
                ThreadCpu cpu = new ThreadCpu(topologyRun
                        .process()
                        .map(BenchProcess::pid)
                        .orElse(ProcessHandle.current().pid()));
                ProcessCpu processCpu = new ProcessCpu(processes);
                Measurement m = timeTopology(producer, records, jobs, metrics).withCpu(processCpu.millis());
                log("%s", m.line(round + "topology"));
                log("CPU of the processes over the round: %s", ProcessCpu.format(m.cpu()));
                log(
                        "CPU of %s threads over the round:%n%s",
                        separateJvms ? "the topology JVM's" : "this JVM's", cpu.report());
                if (metrics != null) {
                    log("the Kafka Streams client's totals over the round:%n%s", metrics.report());
                }
                topology.add(m);
                tx.add(timeRaw(txLoops, producer, records, round));
                plain.add(timeRaw(plainLoops, producer, records, round));
                averageRecordSize = records.stream()
                        .mapToInt(rec -> rec.value().length)
                        .average()
                        .orElse(0);
            }
        }

        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "lifecycle benchmark: %d jobs x %d pods, %d pod events a round (%.1f KB average; %s), %d cores,"
                        + " %d stream thread(s) and as many raw loops, commit interval %d ms, poll %d ms; %d warm-up rounds, then %d measured,"
                        + " each round through the topology, then the raw loops; %s%n",
                workload.jobs(),
                workload.pods(),
                events,
                averageRecordSize / 1024.0,
                workload.interleaved() ? "one pod of each job in turn, --interleave" : "each job's pods together",
                Runtime.getRuntime().availableProcessors(),
                threads,
                cadence.commitInterval().toMillis(),
                cadence.poll().toMillis(),
                warmUpRounds,
                rounds,
                separateJvms
                        ? "the topology and each raw side in a JVM of its own (--separate-jvms)"
                        : gcBetweenRounds
                                ? "all in one JVM, its heap collected before each measured side (--gc-between-rounds)"
                                : "all in one JVM");
        List<Double> roundRatios = new java.util.ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            roundRatios.add(topology.get(r).rate() / tx.get(r).rate());
            System.out.println(topology.get(r).line("round " + (r + 1) + ": topology"));
            System.out.println(tx.get(r).line("round " + (r + 1) + ": raw transactional"));
            System.out.println(plain.get(r).line("round " + (r + 1) + ": raw plain"));
        }
        Measurement medianTopology = median(topology);
        Measurement medianTx = median(tx);
        Measurement medianPlain = median(plain);
        System.out.println(medianTopology.line("topology (exactly_once_v2)"));
        System.out.println(medianTx.line("raw consume->produce, transactional"));
        System.out.println(medianPlain.line("raw consume->produce, plain"));
        System.out.printf(
                Locale.ROOT, "ratio topology / raw transactional: %.2f%n", medianTopology.rate() / medianTx.rate());
        System.out.printf(
                Locale.ROOT, "ratio topology / raw plain:         %.2f%n", medianTopology.rate() / medianPlain.rate());
        // Each round against the raw round timed right after it: what the machine's drift does not move.
        System.out.printf(
                Locale.ROOT,
                "ratio topology / raw transactional, round by round: %s (median %.2f)%n",
                roundRatios.stream()
                        .map(x -> String.format(Locale.ROOT, "%.2f", x))
                        .collect(java.util.stream.Collectors.joining(" · ")),
                roundRatios.stream().sorted().toList().get((rounds - 1) / 2));
        // A round the hypervisor took cores from is slower for no cause of its own: say which.
        System.out.printf(
                Locale.ROOT,
                "cores' time stolen by the hypervisor, round by round (topology / raw transactional): %s ms%n",
                java.util.stream.IntStream.range(0, rounds)
                        .mapToObj(r -> stolen(topology.get(r)) + " / " + stolen(tx.get(r)))
                        .collect(java.util.stream.Collectors.joining(" · ")));
        // What bounds the ratio on a machine of few cores: the CPU all processes spend on a round.
        System.out.printf(
                Locale.ROOT,
                "CPU per round (median round, from the first event sent to the last read, the watcher's close included):%n");
        System.out.printf(Locale.ROOT, "  topology:          %s%n", ProcessCpu.format(medianTopology.cpu()));
        System.out.printf(Locale.ROOT, "  raw transactional: %s%n", ProcessCpu.format(medianTx.cpu()));
        System.out.printf(Locale.ROOT, "  raw plain:         %s%n", ProcessCpu.format(medianPlain.cpu()));
    }

    /** One measured round through raw loops, with the processes' CPU over it. */
    private Measurement timeRaw(
            RawLoops loops, KafkaProducer<String, byte[]> producer, List<Workload.Keyed<byte[]>> records, String round)
            throws InterruptedException {
        settleHeap();
        ProcessCpu processCpu = new ProcessCpu(processes);
        Optional<ThreadCpu> cpu = loops.process().map(p -> new ThreadCpu(p.pid()));
        Measurement m = loops.time(producer, records).withCpu(processCpu.millis());
        log("%s", m.line(round + "raw " + loops.mode()));
        log("CPU of the processes over the round: %s", ProcessCpu.format(m.cpu()));
        if (cpu.isPresent()) {
            log(
                    "CPU of the raw %s loops' JVM's threads over the round:%n%s",
                    loops.mode(), cpu.get().report());
        }
        return m;
    }

    /** The cores' time stolen over the round, in ms; "?" where /proc/stat was not read. */
    private static String stolen(Measurement m) {
        Long ms = m.cpu().get(ProcessCpu.STOLEN);
        return ms == null ? "?" : Long.toString(ms);
    }

    /** The round of median rate (the lower middle one for an even count). */
    private static Measurement median(List<Measurement> rounds) {
        List<Measurement> byRate = rounds.stream()
                .sorted(java.util.Comparator.comparingDouble(Measurement::rate))
                .toList();
        return byRate.get((byRate.size() - 1) / 2);
    }

    /** One round: its jobs and, once admitted, each job's uid (its pod events carry it). */
    private record Round(Workload jobs, Map<Integer, String> jobUids) {}

    /**
     * The round's pod events, serialized: the same bytes each time (the serializer's schema id is
     * the registry's), so the topology and the raw loops get the same records.
     */
    private List<Workload.Keyed<byte[]>> podEvents(Round round) {
        var serializer = serdes.value(PodEvent.class).serializer();
        return round.jobs().podEvents(round.jobUids()).stream()
                .map(e -> new Workload.Keyed<>(e.key(), serializer.serialize(Topics.POD_EVENTS.name(), e.value())))
                .toList();
    }

    /** One timed run: events folded, seconds, and the records its watcher read meanwhile. */
    record Measurement(long events, double seconds, long recordsRead, Map<String, Long> cpu) {
        Measurement(long events, double seconds, long recordsRead) {
            this(events, seconds, recordsRead, Map.of());
        }

        /** With the CPU ms each process spent over the round. */
        Measurement withCpu(Map<String, Long> millis) {
            return new Measurement(events, seconds, recordsRead, millis);
        }

        double rate() {
            return events / seconds;
        }

        String line(String what) {
            return String.format(
                    Locale.ROOT,
                    "%-38s %8d events in %7.3f s = %9.0f events/s  (%d output records read)",
                    what,
                    events,
                    seconds,
                    rate(),
                    recordsRead);
        }
    }

    /** The topology under test: its client when it runs in this JVM, else the JVM it runs in. */
    private record RunningTopology(Optional<KafkaStreams> streams, Optional<BenchProcess> process)
            implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            streams.ifPresent(s -> s.close(Duration.ofSeconds(30)));
            if (process.isPresent()) process.get().close();
        }
    }

    private RunningTopology startTopology(Path stateDir) throws Exception {
        String applicationId = "lahar-bench-" + workload.run();
        RunningTopology running = separateJvms
                ? new RunningTopology(
                        Optional.empty(),
                        Optional.of(new BenchProcess(
                                "topology JVM",
                                TopologyProcess.class,
                                TopologyProcess.args(bootstrap, registryUrl, applicationId, stateDir.toString()),
                                timeout)))
                : new RunningTopology(
                        Optional.of(TopologyProcess.start(bootstrap, serdes, applicationId, stateDir.toString())),
                        Optional.empty());
        log(
                "topology running%s",
                running.process().map(p -> " (pid " + p.pid() + ")").orElse(" in this JVM"));
        return running;
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
        app.stringPropertyNames().stream()
                .filter(k -> k.startsWith("kafka-streams."))
                .forEach(k -> props.put(k.substring("kafka-streams.".length()), app.getProperty(k)));
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("bench.streams."))
                .forEach(k -> props.put(k.substring("bench.streams.".length()), System.getProperty(k)));
        return props;
    }

    /**
     * A system property {@code bench.topics.<setting>} sets that topic-level setting on every topic of
     * the contract, to try another than the contract's (e.g. {@code bench.topics.compression.type=producer}
     * stores the streams-app's lz4 batches as they come, {@code uncompressed} without a codec).
     */
    private void overrideTopicConfigs() throws Exception {
        List<AlterConfigOp> ops = System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("bench.topics."))
                .map(k -> new AlterConfigOp(
                        new ConfigEntry(k.substring("bench.topics.".length()), System.getProperty(k)),
                        AlterConfigOp.OpType.SET))
                .toList();
        if (ops.isEmpty()) {
            return;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<ConfigResource, Collection<AlterConfigOp>> all = new HashMap<>();
            Topics.all().forEach(t -> all.put(new ConfigResource(ConfigResource.Type.TOPIC, t.name()), ops));
            admin.incrementalAlterConfigs(all).all().get();
        }
        log(
                "topic settings of every contract topic: %s",
                ops.stream()
                        .map(o -> o.configEntry().name() + "=" + o.configEntry().value())
                        .toList());
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /**
     * Not timed: submits every job, answers each Pending pod group Inqueue as the scheduler would,
     * and waits for every pod's CreatePod intent, so each job runs its pods when the events come.
     * Returns each job's uid (the pod events carry it, as the bridge's do).
     */
    private Map<Integer, String> admitJobs(KafkaProducer<String, byte[]> producer, Workload workload)
            throws InterruptedException {
        var commands = serdes.value(JobCommand.class).serializer();
        for (int i = 0; i < workload.jobs(); i++) {
            producer.send(new ProducerRecord<>(
                    Topics.JOB_COMMANDS.name(),
                    workload.key(i),
                    commands.serialize(Topics.JOB_COMMANDS.name(), workload.submit(i))));
        }
        producer.flush();

        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < workload.jobs(); i++) {
            index.put(workload.key(i), i);
        }
        Map<Integer, String> jobUids = new HashMap<>();
        var decisions = serdes.value(SchedulerDecision.class).serializer();
        readAll(
                workload,
                Topics.POD_GROUPS.name(),
                serdes.value(PodGroup.class).deserializer(),
                (key, group) -> {
                    if (group != null
                            && group.getStatus().getPhase().equals("Pending")
                            && !jobUids.containsKey(index.get(key))) {
                        int i = index.get(key);
                        jobUids.put(i, group.getJobUid());
                        producer.send(new ProducerRecord<>(
                                Topics.SCHEDULER_DECISIONS.name(),
                                key,
                                decisions.serialize(
                                        Topics.SCHEDULER_DECISIONS.name(), workload.inqueue(i, group.getName()))));
                    }
                },
                () -> jobUids.size() == workload.jobs(),
                "every job's Pending pod group");
        producer.flush();
        log("%d jobs admitted, their pod groups Inqueue", jobUids.size());

        Set<String> created = new HashSet<>();
        readAll(
                workload,
                Topics.POD_INTENTS.name(),
                serdes.value(PodIntent.class).deserializer(),
                (key, intent) -> {
                    if (intent != null && intent.getIntent() instanceof CreatePod create) {
                        created.add(create.getPod());
                    }
                },
                () -> created.size() == workload.jobs() * workload.pods(),
                "every pod's CreatePod intent");
        log("%d pods created", created.size());
        return jobUids;
    }

    /** Reads a topic from its start (committed records of this run only) until {@code done}. */
    private <T> void readAll(
            Workload workload,
            String topic,
            Deserializer<T> values,
            BiConsumer<String, T> each,
            BooleanSupplier done,
            String what)
            throws InterruptedException {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
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

    /** @param metrics the client's totals to sample for the timeline (with {@code --timeline}); null in warm-up rounds */
    private Measurement timeTopology(
            KafkaProducer<String, byte[]> producer,
            List<Workload.Keyed<byte[]>> records,
            Workload workload,
            ClientMetricsDelta metrics)
            throws InterruptedException {
        StatusPhase phases = new StatusPhase();
        Set<String> completed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (Arrivals arrivals = new Arrivals(
                bootstrap,
                Topics.JOB_STATUS.name(),
                workload.jobs(),
                (key, value) -> workload.owns(key) && "Completed".equals(phases.of(value)) && completed.add(key))) {
            log("timing the topology: %d pod events", records.size());
            if (metrics == null || !timeline) {
                long start = send(producer, Topics.POD_EVENTS.name(), records);
                return new Measurement(records.size(), (arrivals.awaitDone(timeout) - start) / 1e9, arrivals.records());
            }
            long end;
            long start;
            long sent;
            try (var timeline = metrics.timeline(50, () -> completed.size() + " completed")) {
                start = send(producer, Topics.POD_EVENTS.name(), records);
                sent = System.nanoTime();
                end = arrivals.awaitDone(timeout);
                timeline.close();
                log(
                        "timeline (every 50 ms; the pod events were all sent and acknowledged at %d ms):%n%s",
                        (sent - start) / 1_000_000, timeline.rows());
            }
            return new Measurement(records.size(), (end - start) / 1e9, arrivals.records());
        }
    }

    /** Sends every record as fast as the producer takes them; returns when the first was sent. */
    static long send(KafkaProducer<String, byte[]> producer, String topic, List<Workload.Keyed<byte[]>> records) {
        long start = System.nanoTime();
        java.util.concurrent.atomic.AtomicReference<Exception> failed =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();
        for (Workload.Keyed<byte[]> r : records) {
            producer.send(new ProducerRecord<>(topic, r.key(), r.value()), (metadata, e) -> {
                if (e != null) {
                    failed.compareAndSet(null, e);
                    failures.incrementAndGet();
                }
            });
        }
        producer.flush();
        // A record the broker refused would only show as a count that never completes: say so now.
        if (failed.get() != null) {
            throw new IllegalStateException(
                    failures.get() + " of " + records.size() + " records to " + topic + " were not sent: "
                            + failed.get(),
                    failed.get());
        }
        return start;
    }

    private void await(String what, BooleanSupplier condition) throws InterruptedException {
        await(timeout, what, condition);
    }

    static void await(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    static void log(String format, Object... args) {
        Object[] stamped = new Object[args.length + 1];
        stamped[0] = java.time.LocalTime.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        System.arraycopy(args, 0, stamped, 1, args.length);
        System.err.printf(Locale.ROOT, "bench-lifecycle: %s " + format + "%n", stamped);
    }
}
