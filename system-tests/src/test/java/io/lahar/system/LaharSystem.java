package io.lahar.system;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lahar.cli.Lahar;
import io.lahar.cli.replay.InputLog;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.FreePorts;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.ServiceProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;

/**
 * The whole of Lahar for the system tests: the streams-app, the scheduler-service, the k8s-bridge
 * and the kube-emulator (the bridge's cluster, of simulated nodes) as processes on the shared
 * broker and registry, started once for all test classes ({@link LaharSystemExtension}).
 *
 * <p>Isolation on a broker that other modules' tests have written to: every id is unique to this
 * run (application id, consumer groups, transactional id); the jobs live in a namespace of their
 * own, which is the only one the bridge serves; they name a {@code schedulerName} of their own,
 * the only one the scheduler places; and the scheduler uses only this run's simulated nodes,
 * selected by a pool label. The streams-app starts where its input topics end now, so it never
 * re-processes (and re-emits) other tests' records.
 *
 * <p>{@link #startSecure} runs the services on the broker's SASL_SSL listener only, their Kafka
 * settings given as a deployment would give them: {@code kafka.}-prefixed lines in a file of mode
 * 0600 that Quarkus reads ({@code quarkus.config.locations}), no password on a command line.
 */
final class LaharSystem implements AutoCloseable {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    final LaharInfra infra;
    final String run;
    /** The jobs' namespace, the bridge's lahar.bridge.namespace. */
    final String namespace;
    /** The jobs' spec.schedulerName, the scheduler's lahar.scheduler.scheduler-names. */
    final String schedulerName;
    /** The simulated nodes' pool label (key lahar.io/pool), the scheduler's node selector. */
    final String pool;

    final String streamsAppId;
    final Path dir;
    final Path kubeconfig;
    final RegistrySerdes serdes;
    final TopicRecords records;
    private final Path root;
    private final KafkaProducer<String, JobCommand> commands;
    private final List<ServiceProcess> streamsApps = new ArrayList<>();
    private ServiceProcess scheduler;
    private ServiceProcess emulator;
    private ServiceProcess bridge;
    private ServiceProcess console;
    /** The streams-app instance the console's actions go to. */
    private ServiceProcess consoleTarget;

    private KubernetesClient kube;
    private int stateDirs;

    /** The listener the services are given; null: the plaintext one. */
    final LaharInfra.Secure secure;
    /** On a broker and registry of its own ({@link #startDedicated}): no console; services restart fast. */
    private final boolean dedicated;
    /** Each streams-app instance's state dir, so a restart after a kill finds what bin/start's would. */
    private final Map<ServiceProcess, Path> stateDirOf = new HashMap<>();

    private LaharSystem(LaharInfra infra, LaharInfra.Secure secure, boolean dedicated) {
        this.infra = infra;
        this.secure = secure;
        this.dedicated = dedicated;
        this.run = UUID.randomUUID().toString().substring(0, 6);
        this.namespace = "sys-" + run;
        this.schedulerName = "lahar-sys-" + run;
        this.pool = "sys-" + run;
        this.streamsAppId = "lahar-sys-" + run;
        this.root = ProjectRoot.DIR;
        this.dir = Path.of(System.getProperty("lahar.system-tests.dir", "target/system-tests"))
                .toAbsolutePath()
                .resolve(run);
        this.kubeconfig = dir.resolve("kubeconfig.yaml");
        this.serdes = new RegistrySerdes(infra.registryUrl());
        this.records = new TopicRecords(infra.bootstrapServers(), serdes, namespace + "/");
        @SuppressWarnings("unchecked")
        var serializer = serdes.value(JobCommand.class).serializer();
        this.commands = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        infra.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                serializer);
    }

    static LaharSystem start(LaharInfra infra) {
        return start(infra, null, false);
    }

    /**
     * A system on a broker and registry of the caller's own, which it may restart and stop (the chaos
     * suite): no console, and the scheduler a static member of its leader group with the shorter
     * timeouts the streams-app has here, so a scheduler started again after a SIGKILL takes over at
     * once instead of waiting out its predecessor's session.
     */
    static LaharSystem startDedicated(LaharInfra infra) {
        return start(infra, null, true);
    }

    /** A system of its own whose services reach Kafka through the SASL_SSL listener, and only through it. */
    static LaharSystem startSecure(LaharInfra infra) {
        return start(
                infra,
                infra.secure()
                        .orElseThrow(() -> new AssertionError(
                                "the shared broker has no SASL_SSL" + " listener (bin/test passes it as "
                                        + LaharInfra.KAFKA_SECURE_BOOTSTRAP_PROPERTY + ")")),
                false);
    }

    private static LaharSystem start(LaharInfra infra, LaharInfra.Secure secure, boolean dedicated) {
        LaharSystem system = new LaharSystem(infra, secure, dedicated);
        try {
            system.startAll();
            return system;
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
    }

    private void startAll() {
        createTopics();
        records.start(); // from the end of the output topics as they are now
        startStreamsAtTheEnd();
        emulator = startEmulator(FreePorts.next());
        scheduler = startScheduler();
        ServiceProcess streams = startStreamsApp(newStateDir());
        // The bridge reads the emulator's kubeconfig when it starts: the emulator is ready first.
        emulator.awaitReady(READY_TIMEOUT);
        bridge = startBridge();
        if (!dedicated) {
            console = startConsole(streams);
        }
        streams.awaitReady(READY_TIMEOUT);
        scheduler.awaitReady(READY_TIMEOUT);
        bridge.awaitReady(READY_TIMEOUT);
        if (console != null) {
            console.awaitReady(READY_TIMEOUT);
        }
        try {
            kube = new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The kube-emulator with this run's simulated nodes, its objects kept in the run's directory, as
     * {@code bin/start} runs it; it writes the kubeconfig the bridge and the tests use once
     * {@code /readyz} answers.
     */
    private ServiceProcess startEmulator(int port) {
        return ServiceProcess.startTlsProgram(
                "kube-emulator",
                root.resolve("kube-emulator/target/kube-emulator.jar"),
                port,
                List.of(
                        "--port", Integer.toString(port),
                        "--nodes", "3x{name=" + pool + ",cpu=8,memory=32Gi,label=lahar.io/pool=" + pool + "}",
                        "--kubeconfig", kubeconfig.toString(),
                        "--data", dir.resolve("kube-emulator").toString(),
                        "--time-scale", "1"),
                "/readyz",
                dir);
    }

    private ServiceProcess startScheduler() {
        Map<String, String> settings = new LinkedHashMap<>(Map.of(
                "lahar.scheduler.transactional-id", "lahar-sys-" + run + "-scheduler",
                "lahar.scheduler.group-id", "lahar-sys-" + run + "-scheduler",
                "lahar.scheduler.scheduler-names", schedulerName,
                "lahar.scheduler.node-selector", "lahar.io/pool:" + pool));
        if (dedicated) {
            settings.put("lahar.scheduler.instance-id", "lahar-sys-" + run + "-scheduler-0");
            settings.put("lahar.scheduler.leader-session-timeout", "12s");
            settings.put("lahar.scheduler.transaction-timeout", "10s");
        }
        return ServiceProcess.start(
                "scheduler-service", jar("scheduler-service"), FreePorts.next(), common(settings), dir);
    }

    /**
     * SIGKILL of the scheduler, then the same one again (same transactional id, same groups), started
     * and returned without waiting: it is ready once it leads and has read its inputs back.
     */
    ServiceProcess killAndStartScheduler() {
        scheduler.kill();
        scheduler = startScheduler();
        return scheduler;
    }

    /** Waits until every service that runs now answers its readiness check (after a fault of the broker or registry). */
    void awaitReady(Duration timeout) {
        services().stream().filter(ServiceProcess::isAlive).forEach(s -> s.awaitReady(timeout));
    }

    /** SIGKILL of the streams-app instance that runs, then one again on the same state dir, as bin/start's supervisor does. */
    ServiceProcess killAndRestartStreamsApp() {
        ServiceProcess killed = streamsApp();
        killed.kill();
        return startStreamsApp(stateDirOf.get(killed)).awaitReady(READY_TIMEOUT);
    }

    /** SIGKILL of the kube-emulator, then the same one again: same port, same data directory. */
    ServiceProcess killAndRestartEmulator() {
        emulator.kill();
        emulator = startEmulator(emulator.port());
        return emulator.awaitReady(READY_TIMEOUT);
    }

    /** SIGKILL of the k8s-bridge, then the same one again (same consumer group, same cluster). */
    ServiceProcess killAndRestartBridge() {
        bridge.kill();
        bridge = startBridge();
        return bridge.awaitReady(READY_TIMEOUT);
    }

    /** The bridge of this run's namespace, on the emulator's cluster (its kubeconfig). */
    private ServiceProcess startBridge() {
        return ServiceProcess.start(
                "k8s-bridge",
                jar("k8s-bridge"),
                FreePorts.next(),
                common(Map.of(
                        "lahar.bridge.group-id",
                        "lahar-sys-" + run + "-bridge",
                        "lahar.bridge.namespace",
                        namespace,
                        "lahar.bridge.scheduler-names",
                        schedulerName,
                        // Volcano's validating webhooks, as bin/start serves and registers them.
                        "lahar.bridge.admission-webhook",
                        "true",
                        "kubeconfig",
                        kubeconfig.toString())),
                dir);
    }

    /** Every input of the lifecycle, as the test may send it: a submit of a Volcano Job in YAML, into this run's namespace. */
    String submit(String yaml) {
        try {
            ObjectNode job = (ObjectNode) YAML.readTree(yaml);
            ((ObjectNode) job.path("metadata")).put("namespace", namespace);
            String name = job.path("metadata").path("name").asText();
            send(JobCommand.newBuilder()
                    .setRequestId(UUID.randomUUID().toString())
                    .setSender("system-tests")
                    .setNamespace(namespace)
                    .setName(name)
                    .setTime(Instant.now())
                    .setCommand(new SubmitJob(JSON.writeValueAsString(job)))
                    .build());
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void send(JobCommand command) {
        try {
            commands.send(new ProducerRecord<>(
                            Topics.JOB_COMMANDS.name(),
                            Topics.jobKey(command.getNamespace(), command.getName()),
                            command))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException("could not send " + command, e);
        }
    }

    /**
     * A Volcano Job of one task of {@code replicas} pods, each running {@code simDuration} on the
     * simulated nodes (minAvailable: all of them), placed by this run's scheduler; for {@link #submit}.
     */
    String simJob(String name, int replicas, String simDuration) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  minAvailable: %d
                  schedulerName: %s
                  tasks:
                  - name: work
                    replicas: %d
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: %s
                      spec:
                        containers:
                        - name: work
                          image: busybox
                """.formatted(name, replicas, schedulerName, replicas, simDuration);
    }

    /**
     * Runs {@code lahar ARGS --server <the streams-app>} in this JVM (picocli, as {@code bin/lahar}
     * would), capturing what it prints.
     */
    Cli lahar(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--server");
        all.add(streamsApp().uri("").toString());
        all.add("--token");
        all.add(apiToken());
        return run(all);
    }

    /**
     * Runs a {@code lahar} verb that reads or writes the topics ({@code submit}, {@code watch}, ...)
     * on the broker listener the services use, with its client settings file when that is the
     * SASL_SSL one.
     */
    Cli laharOnKafka(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap", servicesBootstrap(), "--registry", infra.registryUrl()));
        if (secure != null) {
            all.addAll(List.of("--kafka-config", secure.clientConfigFile().toString()));
        }
        return run(all);
    }

    private static Cli run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Lahar.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args.toArray(String[]::new));
        return new Cli(args, exit, out.toString(), err.toString());
    }

    /** What one {@code lahar} command did. */
    record Cli(List<String> args, int exit, String out, String err) {
        @Override
        public String toString() {
            return "lahar " + String.join(" ", args) + " exited " + exit + "\n--- stdout ---\n" + out
                    + "--- stderr ---\n" + err;
        }
    }

    /** The console, its actions through {@code streams} with the token the streams-app generates. */
    private ServiceProcess startConsole(ServiceProcess streams) {
        consoleTarget = streams;
        return ServiceProcess.start(
                "console",
                jar("console"),
                FreePorts.next(),
                common(Map.of(
                        "lahar.console.api-url", streams.uri("").toString(),
                        "lahar.console.api-token-file", apiTokenFile().toString())),
                dir);
    }

    /**
     * The console: its pages and API, acting through a streams-app that runs. A console started
     * against an instance that a test killed since (KillRestartIT) is started again against a live
     * one, as a deployment's console would reach the REST API through a Service.
     */
    ServiceProcess console() {
        if (!consoleTarget.isAlive()) {
            console.stop();
            console = startConsole(streamsApp());
            console.awaitReady(READY_TIMEOUT);
        }
        return console;
    }

    KubernetesClient kube() {
        return kube;
    }

    /** The API token the streams-app generated in this run's directory. */
    String apiToken() {
        try {
            return Files.readString(apiTokenFile()).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The header value a REST call of this run's streams-app needs. */
    String authorization() {
        return "Bearer " + apiToken();
    }

    /** Every instance of the run's streams-app keeps its token there (the first generates it). */
    Path apiTokenFile() {
        return dir.resolve("api-token");
    }

    /** The repository's root directory (examples, the services' builds). */
    Path root() {
        return root;
    }

    String key(String job) {
        return Topics.jobKey(namespace, job);
    }

    /** The streams-app instance started last that still runs. */
    ServiceProcess streamsApp() {
        for (int i = streamsApps.size() - 1; i >= 0; i--) {
            if (streamsApps.get(i).isAlive()) {
                return streamsApps.get(i);
            }
        }
        throw new IllegalStateException("no streams-app instance runs");
    }

    List<ServiceProcess> services() {
        List<ServiceProcess> all = new ArrayList<>(streamsApps);
        all.add(scheduler);
        all.add(bridge);
        all.add(console);
        all.add(emulator);
        all.removeIf(java.util.Objects::isNull);
        return all;
    }

    /** Starts another streams-app instance of the same application (same id), with a state dir of its own. */
    ServiceProcess startStreamsApp(Path stateDir) {
        ServiceProcess streams = ServiceProcess.start(
                "streams-app-" + (streamsApps.size() + 1),
                jar("streams-app"),
                FreePorts.next(),
                common(Map.of(
                        "quarkus.kafka-streams.bootstrap-servers",
                        servicesBootstrap(),
                        "quarkus.kafka-streams.application-id",
                        streamsAppId,
                        "kafka-streams.state.dir",
                        stateDir.toString(),
                        "lahar.api.token-file",
                        apiTokenFile().toString(),
                        // After a SIGKILL, the dead member leaves the group and its open transaction
                        // is aborted only when these run out: shorter than the defaults (45 s, 30 s)
                        // to keep the crash test short; still session > transaction, as in production.
                        "kafka-streams.consumer.session.timeout.ms",
                        "12000",
                        "kafka-streams.producer.transaction.timeout.ms",
                        "10000")),
                dir);
        streamsApps.add(streams);
        stateDirOf.put(streams, stateDir);
        return streams;
    }

    /** A state dir no instance used before: an instance there restores its stores from the changelogs. */
    Path newStateDir() {
        return dir.resolve("streams-state-" + (++stateDirs));
    }

    /** The last lines of every service's log, for a failure message. */
    String logs() {
        StringBuilder out = new StringBuilder();
        for (ServiceProcess s : services()) {
            if (s != null) {
                out.append(System.lineSeparator()).append(s.logTail(40));
            }
        }
        return out.toString();
    }

    private Map<String, String> common(Map<String, String> specific) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("kafka.bootstrap.servers", servicesBootstrap());
        if (secure != null) {
            all.put("quarkus.config.locations", secureKafkaSettings().toUri().toString());
        }
        all.put("lahar.schema-registry.url", infra.registryUrl());
        all.putAll(specific);
        return all;
    }

    /** The broker address the services are given. */
    String servicesBootstrap() {
        return secure == null ? infra.bootstrapServers() : secure.bootstrapServers();
    }

    /** The secure listener's client settings as a service's kafka. configuration, in a file only its owner reads. */
    private Path secureKafkaSettings() {
        Path file = dir.resolve("kafka-secure.properties");
        if (Files.exists(file)) {
            return file;
        }
        java.util.Properties settings = new java.util.Properties();
        secure.clientConfig().forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                settings.setProperty("kafka." + k, v.toString());
            }
        });
        try {
            Files.createDirectories(dir);
            Files.createFile(
                    file,
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            try (var out = Files.newBufferedWriter(file)) {
                settings.store(out, "the services' Kafka security settings (kafka. prefix)");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path jar(String module) {
        return root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    }

    private void createTopics() {
        infra.createTopics(Topics.all().stream().map(TopicBootstrap::newTopic).toList());
    }

    /**
     * Commits the current end of the streams-app's input topics for its group, so its first start
     * processes this run's records only (as the replay IT does): the lifecycle's inputs, and the
     * flow engine's flow commands, which other modules' tests have written to as well.
     */
    private void startStreamsAtTheEnd() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        infra.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        streamsAppId,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<String> inputs = new ArrayList<>(InputLog.TOPICS);
            inputs.add(Topics.FLOW_COMMANDS.name());
            // The CronJob engine's: earlier runs' ticks (a test writes some ahead of the wall clock) would move its
            // clock.
            inputs.add(Topics.CRONJOB_COMMANDS.name());
            inputs.add(Topics.CRON_CLOCK.name());
            List<TopicPartition> partitions = inputs.stream()
                    .flatMap(t -> IntStream.range(0, Topics.JOB_PARTITIONS).mapToObj(i -> new TopicPartition(t, i)))
                    .toList();
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            consumer.endOffsets(partitions).forEach((tp, end) -> ends.put(tp, new OffsetAndMetadata(end)));
            consumer.commitSync(ends);
        }
    }

    @Override
    public void close() {
        // In parallel: each waits up to its grace period for a clean shutdown.
        List<Thread> stopping = new ArrayList<>();
        for (ServiceProcess s : services()) {
            if (s != null) {
                Thread t = new Thread(s::stop, "stop-" + s.name());
                t.start();
                stopping.add(t);
            }
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (kube != null) {
            kube.close();
        }
        records.close();
        commands.close(Duration.ofSeconds(5));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
