package io.lahar.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;

/**
 * One real Kafka broker in KRaft combined mode (broker and controller in one process, node 1),
 * run as a child JVM from the {@code kafka_2.13} jars the testkit's build resolved.
 *
 * <p>Layout of the data directory: {@code kafka/} holds the log dirs and metadata (formatted with
 * {@code StorageTool} on first start only, so a restart on the same directory keeps its topics),
 * {@code kafka-server.properties} and {@code kafka-log4j2.properties} are written on every start,
 * and {@code kafka.log} collects the broker's output.
 *
 * <p>Settings that matter to Lahar: replication factor and min ISR 1 for the offsets, transaction
 * state and share-coordinator topics, so transactions and {@code exactly_once_v2} work on a single
 * broker; no automatic topic creation (Lahar creates every topic explicitly, with the partition
 * count chosen once); no initial rebalance delay, so consumer groups form at once in tests.
 */
public final class KafkaBroker extends InfraProcess {

    static final String HEAP = "512m";
    static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final int port;
    private final int securePort;
    private final int controllerPort;
    private final BrokerSecurity security;

    private KafkaBroker(
            Path dataDir,
            int port,
            int securePort,
            int controllerPort,
            BrokerSecurity security,
            ChildProcess process,
            Duration startupTime) {
        super(dataDir, process, startupTime);
        this.port = port;
        this.securePort = securePort;
        this.controllerPort = controllerPort;
        this.security = security;
    }

    /** Starts a broker on free loopback ports, keeping its data in {@code dataDir/kafka}. */
    public static KafkaBroker start(Path dataDir) {
        return start(dataDir, 0);
    }

    /**
     * Starts a broker whose client listener is {@code 127.0.0.1:port} (0: a free port), keeping its
     * data in {@code dataDir/kafka}. Blocks until an AdminClient can describe the cluster.
     */
    public static KafkaBroker start(Path dataDir, int port) {
        return start(dataDir, port, false);
    }

    /**
     * As {@link #start(Path, int)}; {@code preferred}: the port is a preference, and a free one is
     * taken when another process holds it (bin/start's fixed ports, "random ones only on conflict").
     */
    public static KafkaBroker start(Path dataDir, int preferredPort, boolean preferred) {
        checkPort("kafka", preferredPort);
        Path dir = dataDir.toAbsolutePath().normalize();
        List<Path> classpath = Launcher.kafkaClasspath();
        long began = System.nanoTime();
        BrokerSecurity security = BrokerSecurity.of(dir);
        formatIfNew(dir, classpath, security);
        return launchOnPorts(preferredPort, preferred, p -> {
            int[] free = FreePorts.distinct(3);
            int clientPort = p == 0 ? free[0] : p;
            int securePort = free[1] == clientPort ? free[0] : free[1];
            int controllerPort = free[2] == clientPort ? FreePorts.next() : free[2];
            return launch(dir, classpath, clientPort, securePort, controllerPort, security, began);
        });
    }

    private static KafkaBroker launch(
            Path dir,
            List<Path> classpath,
            int clientPort,
            int securePort,
            int controllerPort,
            BrokerSecurity security,
            long began) {
        Path serverProperties = writeConfig(dir, clientPort, securePort, controllerPort, security);
        ChildProcess child = ChildProcess.startJava(
                "kafka-broker",
                jvmOptions(dir),
                classpath,
                "kafka.Kafka",
                List.of(serverProperties.toString()),
                dir,
                dir.resolve("kafka.log"),
                ChildProcess.DEFAULT_GRACE);
        String bootstrap = "127.0.0.1:" + clientPort;
        try {
            awaitReady(child, bootstrap);
            addScramUser(bootstrap, security);
        } catch (RuntimeException e) {
            String tail = child.logTail(40);
            child.close();
            if (Launcher.mentionsPortInUse(tail)) {
                throw new PortTakenException(
                        "kafka broker could not bind its ports " + clientPort + "/" + controllerPort + ":\n" + tail);
            }
            throw new InfraException(
                    "kafka broker did not become ready (" + e.getMessage() + "); last lines of " + child.logFile()
                            + ":\n" + tail,
                    e);
        }
        Duration startup = Duration.ofNanos(System.nanoTime() - began);
        return new KafkaBroker(dir, clientPort, securePort, controllerPort, security, child, startup);
    }

    /** The SCRAM user of the SASL_SSL listener, set (or set again) over the plaintext one. */
    private static void addScramUser(String bootstrap, BrokerSecurity security) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            security.user(),
                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                            security.userPassword())))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new InfraException("cannot create the SCRAM user of the SASL_SSL listener: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while creating the SCRAM user", e);
        }
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** {@code host:port} of the SASL_SSL (SCRAM-SHA-512) listener. */
    public String secureBootstrapServers() {
        return "127.0.0.1:" + securePort;
    }

    /** What a client sets to reach {@link #secureBootstrapServers()}: security.protocol, sasl.*, ssl.*. */
    public Map<String, String> secureClientConfig() {
        return security.clientConfig();
    }

    /** The same settings as a properties file (mode 0600), for processes started by a test or script. */
    public Path secureClientConfigFile() {
        return dataDir().resolve(BrokerSecurity.CLIENT_PROPERTIES);
    }

    int controllerPort() {
        return controllerPort;
    }

    private static void formatIfNew(Path dir, List<Path> classpath, BrokerSecurity security) {
        Path logDir = dir.resolve("kafka");
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return;
        }
        // Format needs a complete server configuration; the ports in it are not recorded.
        int[] ports = FreePorts.distinct(3);
        Path serverProperties = writeConfig(dir, ports[0], ports[1], ports[2], security);
        ChildProcess format = ChildProcess.startJava(
                "kafka-storage-format",
                formatJvmOptions(dir),
                classpath,
                "kafka.tools.StorageTool",
                List.of("format", "-t", Uuid.randomUuid().toString(), "-c", serverProperties.toString()),
                dir,
                dir.resolve("kafka.log"),
                ChildProcess.DEFAULT_GRACE);
        try (format) {
            int exit = waitExit(format, Duration.ofSeconds(120));
            if (exit != 0) {
                throw new InfraException("formatting the kafka storage in " + logDir + " failed (exit " + exit
                        + "); last lines of " + format.logFile() + ":\n" + format.logTail(30));
            }
        }
    }

    private static List<String> formatJvmOptions(Path dir) {
        List<String> options = new java.util.ArrayList<>(Launcher.commonJvmOptions());
        options.addAll(List.of(
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-Dlog4j2.configurationFile=" + dir.resolve("kafka-log4j2.properties")));
        return options;
    }

    private static int waitExit(ChildProcess child, Duration timeout) {
        try {
            if (!child.waitFor(timeout)) {
                throw new InfraException(child.name() + " did not finish within " + timeout.toSeconds() + " s");
            }
            return child.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while waiting for " + child.name(), e);
        }
    }

    static Path writeConfig(Path dir, int clientPort, int securePort, int controllerPort, BrokerSecurity security) {
        Path logDir = dir.resolve("kafka");
        String server =
                """
                # Written by lahar-testkit on every start.
                process.roles=broker,controller
                node.id=1
                controller.quorum.voters=1@127.0.0.1:%2$d
                listeners=PLAINTEXT://127.0.0.1:%1$d,SASL_SSL://127.0.0.1:%4$d,CONTROLLER://127.0.0.1:%2$d
                advertised.listeners=PLAINTEXT://127.0.0.1:%1$d,SASL_SSL://127.0.0.1:%4$d
                listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT
                controller.listener.names=CONTROLLER
                inter.broker.listener.name=PLAINTEXT
                log.dirs=%3$s
                # Topics are created explicitly, with partition counts chosen once.
                auto.create.topics.enable=false
                num.partitions=1
                default.replication.factor=1
                min.insync.replicas=1
                # One broker: every internal topic has one replica, or transactions never start.
                offsets.topic.replication.factor=1
                offsets.topic.num.partitions=10
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                transaction.state.log.num.partitions=10
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1
                # Groups form at once instead of waiting for more members.
                group.initial.rebalance.delay.ms=0
                num.network.threads=2
                num.io.threads=4
                num.recovery.threads.per.data.dir=1
                log.retention.check.interval.ms=300000
                """.formatted(clientPort, controllerPort, logDir.toString().replace("\\", "/"), securePort)
                        + security.serverConfig();
        String log4j = """
                # Written by lahar-testkit: the broker's output goes to stdout, which is kafka.log.
                status = warn
                appender.stdout.type = Console
                appender.stdout.name = STDOUT
                appender.stdout.layout.type = PatternLayout
                appender.stdout.layout.pattern = [%d] %p %m (%c)%n
                rootLogger.level = INFO
                rootLogger.appenderRef.stdout.ref = STDOUT
                logger.request.name = kafka.request.logger
                logger.request.level = WARN
                logger.storage.name = org.apache.kafka.storage.internals.log
                logger.storage.level = WARN
                logger.unifiedlog.name = kafka.log
                logger.unifiedlog.level = WARN
                # Every client and server prints its whole configuration at INFO: hundreds of lines.
                logger.config.name = org.apache.kafka.common.config.AbstractConfig
                logger.config.level = WARN
                """;
        try {
            Files.createDirectories(logDir);
            Path serverFile = dir.resolve("kafka-server.properties");
            Files.writeString(serverFile, server, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("kafka-log4j2.properties"), log4j, StandardCharsets.UTF_8);
            return serverFile;
        } catch (IOException e) {
            throw new InfraException("cannot write the kafka configuration in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static List<String> jvmOptions(Path dir) {
        List<String> options = new java.util.ArrayList<>(Launcher.commonJvmOptions());
        options.addAll(List.of(
                "-Xms128m",
                "-Xmx" + HEAP,
                // Several JVMs share two cores here: the serial collector keeps threads and RSS low.
                "-XX:+UseSerialGC",
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + dir.resolve("kafka-log4j2.properties"),
                "-Dkafka.logs.dir=" + dir));
        return options;
    }

    private static void awaitReady(ChildProcess child, String bootstrap) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 100,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        try (Admin admin = Admin.create(config)) {
            while (true) {
                if (!child.isAlive()) {
                    throw new InfraException("the broker process exited");
                }
                try {
                    var nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5000))
                            .nodes()
                            .get(6, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    // Not listening yet, or still catching up with its metadata: ask again.
                }
                if (System.nanoTime() > deadline) {
                    throw new InfraException("no answer to describeCluster on " + bootstrap + " within "
                            + READY_TIMEOUT.toSeconds() + " s");
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while waiting for the broker", e);
        }
    }
}
