package io.lahar.schema.serde;

import com.microsoft.kiota.ApiException;
import io.apicurio.registry.client.RegistryClientFactory;
import io.apicurio.registry.client.common.DefaultVertxInstance;
import io.apicurio.registry.client.common.RegistryClientOptions;
import io.apicurio.registry.resolver.client.RegistryClientFacade;
import io.apicurio.registry.resolver.client.RegistryClientFacadeImpl;
import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.rest.client.models.ProblemDetails;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.TransientFailure;
import io.vertx.core.http.HttpClosedException;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro serdes for the topic contract, backed by the schema registry. Values are written in the
 * Confluent wire format (magic byte and 4-byte schema id) so third-party clients interoperate;
 * schemas are registered on first use under the TopicIdStrategy subject {@code <topic>-value}.
 * Every Lahar service and tool reads and writes the topics through these, so all of them decode
 * into the generated classes the same way, inside Quarkus or not.
 *
 * <p>All serdes of one instance share one registry client whose HTTP connections time out
 * ({@link #CONNECT_TIMEOUT}, {@link #IDLE_TIMEOUT}), and every call is waited on for at most
 * their sum. Why: the registry client built from the serde configuration has no timeout at all,
 * and waits on its answer with an unbounded {@code CompletableFuture.get}; one lost answer to a
 * schema registration once held a stream thread (and a CI run) forever, and a lost answer the
 * connection's timeouts did not see held one again.
 *
 * <p>A registry that does not answer (refused or lost connection, silence past the idle timeout, an
 * HTTP 5xx or 429) is an outage, not a bad record: the call is sent again with a growing pause for
 * up to the instance's wait ({@link #WAIT} unless given; {@link #withWait} gives a view of the same
 * registry with another), then fails with a {@link TransientFailure}, which every consumer treats
 * as "try this record again later", never as a reason to dead-letter it. Registration is
 * find-or-create, so a repeat is harmless. {@link #outage()} says whether the registry is failing
 * now, for the services' readiness; {@link #stopWaiting()} ends every wait, for a shutdown.
 */
public final class RegistrySerdes {

    /** How long opening a connection to the registry may take. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a connection with a request on it may stay silent before it is closed. */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(10);
    /** How long one call keeps trying a registry that does not answer before it fails as transient. */
    public static final Duration WAIT = Duration.ofSeconds(20);

    private static final long FIRST_RETRY_DELAY_MS = 250;
    private static final long MAX_RETRY_DELAY_MS = 4_000;
    /** An outage no call has looked at for this long is checked by {@link #outage()} itself. */
    private static final Duration PROBE_AFTER = Duration.ofSeconds(5);

    private static final System.Logger LOG = System.getLogger(RegistrySerdes.class.getName());

    /**
     * HTTP basic credentials of a registry that refuses anonymous clients (bin/start's does: an
     * open registry lets anyone delete the contract's schemas). {@link #toString()} hides the password.
     */
    public record Credentials(String username, String password) {

        public Credentials {
            if (username == null || username.isBlank() || password == null || password.isEmpty()) {
                throw new IllegalArgumentException("registry credentials need a username and a password");
            }
        }

        /** From a properties file with {@code username=} and {@code password=} (mode 0600). */
        public static Credentials fromFile(Path file) {
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "cannot read the registry credentials in " + file + ": " + e.getMessage(), e);
            }
            return new Credentials(p.getProperty("username"), p.getProperty("password"));
        }

        /** A service's configuration key of a file with {@code username=} and {@code password=} (as {@link #fromFile} reads). */
        public static final String FILE_KEY = "lahar.schema-registry.credentials-file";
        /** Or the two as configuration values (an environment variable from a secret, say). */
        public static final String USERNAME_KEY = "lahar.schema-registry.username";

        public static final String PASSWORD_KEY = "lahar.schema-registry.password";

        /**
         * A service's registry credentials from its configuration ({@code config} answers a key's
         * value, empty when unset): the file of {@link #FILE_KEY}, else {@link #USERNAME_KEY} and
         * {@link #PASSWORD_KEY}; null when none is set (an open registry). Both ways at once, or a
         * username without a password, is a mistake said at start-up rather than half applied.
         */
        public static Credentials configured(java.util.function.Function<String, Optional<String>> config) {
            Optional<String> file = config.apply(FILE_KEY).filter(v -> !v.isBlank());
            Optional<String> username = config.apply(USERNAME_KEY).filter(v -> !v.isBlank());
            Optional<String> password = config.apply(PASSWORD_KEY).filter(v -> !v.isEmpty());
            if (file.isPresent()) {
                if (username.isPresent() || password.isPresent()) {
                    throw new IllegalArgumentException(
                            FILE_KEY + " and " + USERNAME_KEY + "/" + PASSWORD_KEY + " are both set: set one of them");
                }
                return fromFile(Path.of(file.get().strip()));
            }
            if (username.isEmpty() && password.isEmpty()) {
                return null;
            }
            if (username.isEmpty() || password.isEmpty()) {
                throw new IllegalArgumentException(
                        USERNAME_KEY + " and " + PASSWORD_KEY + " go together: one of them is not set");
            }
            return new Credentials(username.get(), password.get());
        }

        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=***]";
        }
    }

    private final Registry registry;
    private final Duration wait;

    /** The registry, its client and what is known of its outage: shared by the views of {@link #withWait}. */
    private static final class Registry {
        final String url;
        final Credentials credentials;
        final Duration idleTimeout;
        /** The longest one call may take, whatever the connection does: {@link #bounded}. */
        final Duration callTimeout;

        RegistryClient restClient;
        RegistryClientFacade client;
        /** Null while the registry answers; else since when, and why, it has not. */
        volatile Outage outage;

        volatile boolean stopped;

        Registry(String url, Credentials credentials, Duration idleTimeout) {
            this.url = url;
            this.credentials = credentials;
            this.idleTimeout = idleTimeout;
            this.callTimeout = idleTimeout.plus(CONNECT_TIMEOUT);
        }

        /**
         * The call on a thread of its own, waited on for at most {@link #callTimeout}: past it the
         * call counts as unanswered and its thread is interrupted (which ends the client's wait).
         * Why: the connection's timeouts do not bound a call. A request waiting for a pooled
         * connection, an answer trickling in slower than the idle timeout, or a lost completion in
         * the client's adapter (its unbounded {@code CompletableFuture.get}) each held a stream
         * thread for good; one held the streams-app in REBALANCING at start for minutes.
         */
        <T> T bounded(Supplier<T> call) {
            Future<T> running = CALLS.submit(call::get);
            try {
                return running.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                if (e.getCause() instanceof Error error) throw error;
                throw new IllegalStateException(e.getCause());
            } catch (TimeoutException e) {
                running.cancel(true);
                throw new CompletionException(new TimeoutException(
                        "no answer from the schema registry within " + callTimeout.toSeconds() + " s"));
            } catch (InterruptedException e) {
                running.cancel(true);
                Thread.currentThread().interrupt();
                throw new TransientFailure("interrupted while waiting for the schema registry at " + url, e);
            }
        }
    }

    /** The threads registry calls run on ({@link Registry#bounded}); daemons, so they never hold a shutdown. */
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("lahar-registry-call-", 0).factory());

    private record Outage(Instant since, Instant lastTried, String reason) {}

    /** @param registryUrl the Apicurio Registry v3 API, e.g. http://127.0.0.1:8080/apis/registry/v3 */
    public RegistrySerdes(String registryUrl) {
        this(new Registry(registryUrl, null, IDLE_TIMEOUT), WAIT);
    }

    /** A registry that wants credentials ({@code credentials} null: an open one). */
    public RegistrySerdes(String registryUrl, Credentials credentials) {
        this(new Registry(registryUrl, credentials, IDLE_TIMEOUT), WAIT);
    }

    /** @param wait how long one call keeps trying a registry that does not answer ({@link #WAIT} by default) */
    public RegistrySerdes(String registryUrl, Duration wait) {
        this(new Registry(registryUrl, null, IDLE_TIMEOUT), wait);
    }

    /** With another idle timeout (whole seconds), for tests of a registry that does not answer. */
    RegistrySerdes(String registryUrl, Duration idleTimeout, Duration wait) {
        this(new Registry(registryUrl, null, idleTimeout), wait);
    }

    private RegistrySerdes(Registry registry, Duration wait) {
        this.registry = registry;
        this.wait = wait;
    }

    /**
     * The same registry — one client, one record of its outage — whose calls keep trying for
     * {@code wait}: a stream thread waits out an outage where it is rather than fail its records
     * (and lose its partitions for a rebalance), a request from a user had better fail sooner.
     */
    public RegistrySerdes withWait(Duration wait) {
        return new RegistrySerdes(registry, wait);
    }

    /** Ends every wait for the registry, now and later (a shutdown): calls that find it away fail at once. */
    public void stopWaiting() {
        registry.stopped = true;
    }

    /**
     * The serde of a topic whose values are {@code type}. It asks the registry once per topic (to
     * register or find the schema) and once per writer schema id (to learn it), then encodes and
     * decodes with one cached datum writer and one reader per writer schema id: see
     * {@link CachingAvroSerializer} and {@link CachingAvroDeserializer}. Thread-safe.
     */
    public <T extends SpecificRecord> Serde<T> value(Class<T> type) {
        Serde<Object> serde = genericSerde();
        return Serdes.serdeFrom(
                new CachingAvroSerializer<>(type, serde.serializer()),
                new CachingAvroDeserializer<>(type, serde.deserializer()));
    }

    /**
     * The serializer of a topic whose values are {@code type} for values that write their own binary
     * ({@link CachingAvroSerializer.Direct}); the same header, registration and bytes as
     * {@link #value(Class)}'s serializer. Thread-safe.
     */
    public <T extends SpecificRecord> Serializer<CachingAvroSerializer.Direct<T>> directValue(Class<T> type) {
        CachingAvroSerializer<T> caching =
                new CachingAvroSerializer<>(type, genericSerde().serializer());
        return new Serializer<>() {
            @Override
            public byte[] serialize(String topic, CachingAvroSerializer.Direct<T> value) {
                return caching.serialize(topic, type, value);
            }

            @Override
            public void close() {
                caching.close();
            }
        };
    }

    /**
     * The registry's own serde, reading generic records: the caching serdes ask it for the first
     * record of each topic or schema id (and the per-record cost before them was this plus
     * {@link SpecificAvroDeserializer}).
     */
    public Serde<Object> genericSerde() {
        Map<String, Object> generic = config();
        generic.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, false);
        AvroKafkaSerializer<Object> serializer = new AvroKafkaSerializer<>(client());
        serializer.configure(generic, false);
        AvroKafkaDeserializer<Object> deserializer = new AvroKafkaDeserializer<>(client());
        deserializer.configure(generic, false);
        return Serdes.serdeFrom(
                (Serializer<Object>) (topic, value) -> retried(() -> serializer.serialize(topic, value)),
                (Deserializer<Object>) (topic, bytes) -> retried(() -> deserializer.deserialize(topic, bytes)));
    }

    /**
     * A registry call, sent again while the registry does not answer, for up to this view's wait.
     * Apicurio's own retries do not cover this: its client's retry looks only at the outermost
     * exception, which its adapter wraps, and its cache retries only HTTP 429. Cheap: the caching
     * serdes call the registry serde for the first record of a topic or writer schema only.
     *
     * @throws TransientFailure when the registry has not answered for the wait
     */
    private <T> T retried(Supplier<T> call) {
        long deadline = System.nanoTime() + wait.toNanos();
        long delay = FIRST_RETRY_DELAY_MS;
        while (true) {
            RuntimeException failure;
            try {
                T result = registry.bounded(call);
                answered();
                return result;
            } catch (RuntimeException e) {
                if (!unanswered(e)) {
                    // An answer, if not the one hoped for (no such schema id, a record that does not decode).
                    answered();
                    throw e;
                }
                failure = e;
            }
            Outage before = registry.outage;
            Instant now = Instant.now();
            registry.outage = new Outage(before == null ? now : before.since(), now, DeadLetters.reason(failure));
            if (before == null) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the schema registry at {0} does not answer ({1}); what needs it waits",
                        registry.url,
                        registry.outage.reason());
            }
            if (registry.stopped || System.nanoTime() + delay * 1_000_000 >= deadline) {
                throw new TransientFailure(
                        "the schema registry at " + registry.url + " does not answer"
                                + (registry.stopped
                                        ? " (no more waiting: shutting down)"
                                        : " (tried for " + wait.toSeconds() + " s)"),
                        failure);
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new TransientFailure(
                        "interrupted while waiting for the schema registry at " + registry.url, failure);
            }
            delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        }
    }

    /** The registry answered: an outage, if there was one, is over. */
    private void answered() {
        Outage over = registry.outage;
        if (over != null) {
            registry.outage = null;
            LOG.log(
                    System.Logger.Level.INFO,
                    "the schema registry at {0} answers again, after {1} s",
                    registry.url,
                    Duration.between(over.since(), Instant.now()).toSeconds());
        }
    }

    /**
     * The registry did not answer: a connection that could not be opened, closed, failed or timed
     * out, or an HTTP 5xx or 429. Not an I/O error of decoding (a truncated record's EOFException),
     * nor a 4xx answer (no such schema id), which must reach the dead-letter path at once.
     */
    static boolean unanswered(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof HttpClosedException
                    || cause instanceof SocketException
                    || cause instanceof SocketTimeoutException
                    || cause instanceof TimeoutException) return true;
            if (cause instanceof ApiException api && (status(api) >= 500 || status(api) == 429)) return true;
        }
        return false;
    }

    /**
     * What the registry answered in {@code error}'s cause chain, in words ({@code "404
     * ContentNotFoundException: No content with ID '7' was found."}), or empty when it holds no answer.
     * Apicurio's answers carry their text in fields, not in the exception's message.
     */
    public static Optional<String> answer(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProblemDetails p) {
                String text = p.getDetail() != null ? p.getDetail() : p.getTitle();
                return Optional.of(status(p) + (text == null ? "" : " " + text));
            }
            if (t instanceof ApiException api) {
                return Optional.of("HTTP " + status(api) + (api.getMessage() == null ? "" : " " + api.getMessage()));
            }
        }
        return Optional.empty();
    }

    private static int status(ApiException api) {
        return api instanceof ProblemDetails p && p.getStatus() != null ? p.getStatus() : api.getResponseStatusCode();
    }

    /**
     * Empty while the registry answers; else since when it has not, and the last failure. An outage
     * that no call has looked at for a few seconds is checked here with a request of its own, so the
     * answer never stays stale after the registry is back.
     */
    public Optional<String> outage() {
        Outage current = registry.outage;
        if (current == null) return Optional.empty();
        if (Instant.now().isAfter(current.lastTried().plus(PROBE_AFTER))) {
            current = probe(current);
            if (current == null) return Optional.empty();
        }
        return Optional.of("the schema registry at " + registry.url + " has not answered since " + current.since()
                + ": " + current.reason());
    }

    /**
     * The serde settings. A serde configured with these alone builds its own registry client,
     * without timeouts: use {@link #value} or {@link #genericSerde} for anything that runs.
     */
    public Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>();
        config.put(SerdeConfig.REGISTRY_URL, registry.url);
        if (registry.credentials != null) {
            config.put(SchemaResolverConfig.AUTH_USERNAME, registry.credentials.username());
            config.put(SchemaResolverConfig.AUTH_PASSWORD, registry.credentials.password());
        }
        config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, true);
        config.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
        return config;
    }

    /** One request of its own (the registry's system info): the outage ends, or is noted as still on. */
    private Outage probe(Outage current) {
        try {
            client();
            registry.bounded(() -> registry.restClient.system().info().get());
            answered();
            return null;
        } catch (RuntimeException e) {
            if (!unanswered(e)) {
                answered();
                return null;
            }
            Outage still = new Outage(current.since(), Instant.now(), DeadLetters.reason(e));
            registry.outage = still;
            return still;
        }
    }

    /** The registry client every serde of this registry uses, built on first use. */
    private RegistryClientFacade client() {
        synchronized (registry) {
            if (registry.client == null) {
                // Apicurio's process-wide Vert.x (the one its serdes use when given nothing), with a
                // web client of our own that carries the timeouts.
                var vertx = DefaultVertxInstance.get();
                WebClient web = WebClient.create(
                        vertx,
                        new WebClientOptions()
                                .setConnectTimeout((int) CONNECT_TIMEOUT.toMillis())
                                .setIdleTimeout((int) registry.idleTimeout.toSeconds()));
                RegistryClientOptions options = RegistryClientOptions.create(registry.url, vertx)
                        .customWebClient(web)
                        .disableRetry();
                if (registry.credentials != null) {
                    options.basicAuth(registry.credentials.username(), registry.credentials.password());
                }
                registry.restClient = RegistryClientFactory.create(options);
                registry.client = new RegistryClientFacadeImpl(registry.restClient);
            }
            return registry.client;
        }
    }
}
