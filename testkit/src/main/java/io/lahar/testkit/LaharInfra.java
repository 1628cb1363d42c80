package io.lahar.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Lahar's infrastructure: one Kafka broker and one Apicurio Registry, either started here as child
 * processes or already running elsewhere (then only their addresses are known and {@link #close()}
 * leaves them alone).
 *
 * <p>Integration tests share one instance per JVM through {@link #shared()}: when the system
 * properties {@value #KAFKA_BOOTSTRAP_PROPERTY} and {@value #REGISTRY_URL_PROPERTY} are set (a
 * script started the infrastructure once for the whole {@code mvn verify}), those are used;
 * otherwise a pair is started lazily in a temporary directory and stopped when the JVM exits.
 */
public final class LaharInfra implements AutoCloseable {

    /** System property: {@code bootstrap.servers} of an already running broker. */
    public static final String KAFKA_BOOTSTRAP_PROPERTY = "lahar.kafka.bootstrap";
    /** System property: Apicurio v3 API URL ({@code .../apis/registry/v3}) of a running registry. */
    public static final String REGISTRY_URL_PROPERTY = "lahar.registry.url";
    /** System property: {@code bootstrap.servers} of the running broker's SASL_SSL listener. */
    public static final String KAFKA_SECURE_BOOTSTRAP_PROPERTY = "lahar.kafka.secure-bootstrap";
    /** System property: the properties file with the client settings for that listener. */
    public static final String KAFKA_SECURE_CONFIG_PROPERTY = "lahar.kafka.secure-config";

    private static final String REGISTRY_API_SUFFIX = "/apis/registry/v3";
    private static final String CCOMPAT_API_SUFFIX = "/apis/ccompat/v7";
    private static final Duration TOPIC_READY_TIMEOUT = Duration.ofSeconds(60);

    private static LaharInfra shared;
    private static boolean sharedWithQuarkus;

    private final String bootstrapServers;
    private final String registryUrl;
    private final Secure secure;
    private final KafkaBroker broker;
    private final ApicurioRegistry registry;
    private final Path deleteOnClose;
    private volatile boolean closed;

    /** The broker's SASL_SSL listener: where it is and the file with the settings that reach it. */
    public record Secure(String bootstrapServers, Path clientConfigFile) {

        /** The file's settings (security.protocol, sasl.*, ssl.*) with {@code bootstrap.servers} added. */
        public Map<String, Object> clientConfig() {
            java.util.Properties p = new java.util.Properties();
            try (var in = Files.newBufferedReader(clientConfigFile)) {
                p.load(in);
            } catch (IOException e) {
                throw new InfraException("cannot read " + clientConfigFile + ": " + e.getMessage(), e);
            }
            Map<String, Object> config = new java.util.HashMap<>();
            p.stringPropertyNames().forEach(k -> config.put(k, p.getProperty(k)));
            config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            return config;
        }
    }

    private LaharInfra(
            String bootstrapServers,
            String registryUrl,
            Secure secure,
            KafkaBroker broker,
            ApicurioRegistry registry,
            Path deleteOnClose) {
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
        this.secure = secure;
        this.broker = broker;
        this.registry = registry;
        this.deleteOnClose = deleteOnClose;
    }

    /** Starts a broker and a registry on free ports with their data in {@code dir}. */
    public static LaharInfra start(Path dir, boolean persistent) {
        return start(dir, persistent, 0, 0);
    }

    /**
     * Starts a broker and a registry (in parallel) with their data in {@code dir}. Persistent: the
     * broker keeps its topics in {@code dir/kafka} and the registry its schemas in
     * {@code dir/registry} across restarts. Not persistent: both start empty (the two
     * subdirectories are wiped first), so no record ever names a schema id the registry forgot.
     * A port of 0 means a free one.
     */
    public static LaharInfra start(Path dir, boolean persistent, int kafkaPort, int registryPort) {
        return start(dir, persistent, kafkaPort, registryPort, false, false, null);
    }

    /** As above; {@code secureRegistry}: the registry wants the credentials of {@link #registryAuth()}. */
    public static LaharInfra start(
            Path dir, boolean persistent, int kafkaPort, int registryPort, boolean secureRegistry) {
        return start(dir, persistent, kafkaPort, registryPort, secureRegistry, false, null);
    }

    /** As above; {@code preferPorts}: the two ports are preferences, free ones taken where they are in use. */
    public static LaharInfra start(
            Path dir,
            boolean persistent,
            int kafkaPort,
            int registryPort,
            boolean secureRegistry,
            boolean preferPorts) {
        return start(dir, persistent, kafkaPort, registryPort, secureRegistry, preferPorts, null);
    }

    private static LaharInfra start(
            Path dir,
            boolean persistent,
            int kafkaPort,
            int registryPort,
            boolean secureRegistry,
            boolean preferPorts,
            Path deleteOnClose) {
        Path root = dir.toAbsolutePath().normalize();
        if (!persistent) {
            deleteRecursively(root.resolve("kafka"));
            deleteRecursively(root.resolve("registry"));
        }
        CompletableFuture<KafkaBroker> broker = CompletableFuture.supplyAsync(
                () -> KafkaBroker.start(root, kafkaPort, preferPorts), LaharInfra::runOnNewThread);
        CompletableFuture<ApicurioRegistry> registry = CompletableFuture.supplyAsync(
                () -> ApicurioRegistry.start(root, persistent, registryPort, secureRegistry, preferPorts),
                LaharInfra::runOnNewThread);
        try {
            CompletableFuture.allOf(broker, registry).join();
        } catch (CompletionException e) {
            // Whichever did start must not outlive the failure.
            broker.thenAccept(KafkaBroker::close);
            registry.thenAccept(ApicurioRegistry::close);
            broker.exceptionally(t -> null).join();
            registry.exceptionally(t -> null).join();
            if (deleteOnClose != null) {
                deleteRecursively(deleteOnClose);
            }
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        KafkaBroker b = broker.join();
        ApicurioRegistry r = registry.join();
        return new LaharInfra(
                b.bootstrapServers(),
                r.url(),
                new Secure(b.secureBootstrapServers(), b.secureClientConfigFile()),
                b,
                r,
                deleteOnClose);
    }

    private static void runOnNewThread(Runnable task) {
        Thread thread = new Thread(task, "lahar-infra-start");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Infrastructure that runs elsewhere. {@code registryUrl} is the Apicurio v3 API URL (ending in
     * {@code /apis/registry/v3}); a bare {@code http://host:port} is completed to it.
     */
    public static LaharInfra external(String bootstrapServers, String registryUrl) {
        return external(bootstrapServers, registryUrl, null);
    }

    /** Infrastructure that runs elsewhere, with its broker's SASL_SSL listener ({@code secure} may be null). */
    public static LaharInfra external(String bootstrapServers, String registryUrl, Secure secure) {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be empty");
        }
        if (registryUrl == null || registryUrl.isBlank()) {
            throw new IllegalArgumentException("registryUrl must not be empty");
        }
        return new LaharInfra(
                bootstrapServers.strip(), normalizeRegistryUrl(registryUrl.strip()), secure, null, null, null);
    }

    /**
     * The instance every integration test of this JVM shares: the running infrastructure named by
     * the system properties, or else a pair started on first use in a temporary directory.
     */
    public static synchronized LaharInfra shared() {
        if (shared != null && !shared.closed) {
            return shared;
        }
        String bootstrap = System.getProperty(KAFKA_BOOTSTRAP_PROPERTY, "");
        String registryUrl = System.getProperty(REGISTRY_URL_PROPERTY, "");
        if (!bootstrap.isBlank() && !registryUrl.isBlank()) {
            String secureBootstrap = System.getProperty(KAFKA_SECURE_BOOTSTRAP_PROPERTY, "");
            String secureConfig = System.getProperty(KAFKA_SECURE_CONFIG_PROPERTY, "");
            shared = external(
                    bootstrap,
                    registryUrl,
                    secureBootstrap.isBlank() || secureConfig.isBlank()
                            ? null
                            : new Secure(secureBootstrap.strip(), Path.of(secureConfig.strip())));
            return shared;
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("lahar-infra-");
        } catch (IOException e) {
            throw new InfraException(
                    "cannot create a temporary directory for the shared infrastructure: " + e.getMessage(), e);
        }
        LaharInfra started = start(dir, false, 0, 0, false, false, dir);
        Runtime.getRuntime().addShutdownHook(new Thread(started::close, "lahar-infra-shared-stop"));
        shared = started;
        return shared;
    }

    /**
     * Marks the shared instance as used by a Quarkus application. Quarkus stops its applications
     * when JUnit closes its own root-store entries, possibly after ours; stopping the broker
     * first would leave a Kafka Streams app waiting on close. Such an instance stops with the JVM.
     */
    static synchronized void markSharedWithQuarkus() {
        sharedWithQuarkus = true;
    }

    /** Called when JUnit closes its root store: stops the shared instance unless Quarkus uses it. */
    static synchronized void closeSharedAfterTests() {
        if (!sharedWithQuarkus) {
            closeShared();
        }
    }

    /** Stops the shared instance if this JVM started it; the next {@link #shared()} starts anew. */
    static synchronized void closeShared() {
        sharedWithQuarkus = false;
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * The broker's SASL_SSL (SCRAM-SHA-512) listener; empty for external infrastructure whose
     * script did not name one ({@value #KAFKA_SECURE_BOOTSTRAP_PROPERTY}).
     */
    public Optional<Secure> secure() {
        return Optional.ofNullable(secure);
    }

    /** The registry's credentials when this instance started it secured; empty otherwise. */
    public Optional<RegistryAuth> registryAuth() {
        return registry == null ? Optional.empty() : registry.auth();
    }

    /** Apicurio's v3 API: {@code http://127.0.0.1:<port>/apis/registry/v3}. */
    public String registryUrl() {
        return registryUrl;
    }

    /** The Confluent-compatible API of the same registry: {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String ccompatUrl() {
        return registryUrl.substring(0, registryUrl.length() - REGISTRY_API_SUFFIX.length()) + CCOMPAT_API_SUFFIX;
    }

    /** The broker process, when this instance started it. */
    public Optional<KafkaBroker> broker() {
        return Optional.ofNullable(broker);
    }

    /** The registry process, when this instance started it. */
    public Optional<ApicurioRegistry> registry() {
        return Optional.ofNullable(registry);
    }

    /** Whether the broker and registry run elsewhere (close() leaves them running). */
    public boolean isExternal() {
        return broker == null;
    }

    /** Client settings to connect to the broker; add serializers, group id etc. to a copy. */
    public Map<String, Object> kafkaClientConfig() {
        return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }

    /** Creates topics with {@code partitions} partitions and one replica; existing ones are left as they are. */
    public void createTopics(int partitions, String... names) {
        createTopics(Arrays.stream(names)
                .map(n -> new NewTopic(n, partitions, (short) 1))
                .toList());
    }

    /**
     * Creates the topics (idempotent: a topic that exists already is left as it is) and waits
     * until every partition has a leader, so a producer or a Kafka Streams app started right after
     * finds them.
     */
    public void createTopics(Collection<NewTopic> topics) {
        if (topics.isEmpty()) {
            return;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<String> failures = new ArrayList<>();
            admin.createTopics(topics).values().forEach((name, future) -> {
                try {
                    future.get(TOPIC_READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        failures.add(name + ": " + e.getCause());
                    }
                } catch (TimeoutException e) {
                    failures.add(name + ": no answer within " + TOPIC_READY_TIMEOUT.toSeconds() + " s");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures.add(name + ": interrupted");
                }
            });
            if (!failures.isEmpty()) {
                throw new InfraException(
                        "cannot create topics on " + bootstrapServers + ": " + String.join("; ", failures));
            }
            awaitLeaders(admin, topics.stream().map(NewTopic::name).collect(Collectors.toSet()));
        }
    }

    private void awaitLeaders(Admin admin, Set<String> names) {
        long deadline = System.nanoTime() + TOPIC_READY_TIMEOUT.toNanos();
        String lastProblem = "";
        try {
            while (System.nanoTime() < deadline) {
                try {
                    Map<String, TopicDescription> descriptions =
                            admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
                    boolean ready = descriptions.values().stream()
                            .allMatch(d -> d.partitions().stream()
                                    .allMatch(p ->
                                            p.leader() != null && !p.leader().isEmpty()));
                    if (ready) {
                        return;
                    }
                    lastProblem = "some partitions have no leader yet";
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw new InfraException("cannot describe topics " + names + ": " + e.getCause(), e);
                    }
                    lastProblem = e.getCause().getMessage();
                } catch (TimeoutException e) {
                    lastProblem = "describeTopics timed out";
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while waiting for topics " + names, e);
        }
        throw new InfraException(
                "topics " + names + " not ready within " + TOPIC_READY_TIMEOUT.toSeconds() + " s: " + lastProblem);
    }

    /** Stops what this instance started (registry first, then broker); external infrastructure stays. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (registry != null) {
                registry.close();
            }
        } finally {
            try {
                if (broker != null) {
                    broker.close();
                }
            } finally {
                if (deleteOnClose != null) {
                    deleteRecursively(deleteOnClose);
                }
            }
        }
    }

    public boolean isClosed() {
        return closed;
    }

    static String normalizeRegistryUrl(String url) {
        String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        if (trimmed.endsWith(REGISTRY_API_SUFFIX)) {
            return trimmed;
        }
        if (trimmed.endsWith(CCOMPAT_API_SUFFIX)) {
            return trimmed.substring(0, trimmed.length() - CCOMPAT_API_SUFFIX.length()) + REGISTRY_API_SUFFIX;
        }
        if (trimmed.contains("/apis/")) {
            throw new IllegalArgumentException("registry URL " + url + " is neither the Apicurio v3 API (..."
                    + REGISTRY_API_SUFFIX + ") nor the ccompat API (..." + CCOMPAT_API_SUFFIX + ")");
        }
        return trimmed + REGISTRY_API_SUFFIX;
    }

    static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
