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
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.Serdes;

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
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Avro serdes for the topic contract, backed by the schema registry. Values are written in the
 * Confluent wire format (magic byte and 4-byte schema id) so third-party clients interoperate;
 * schemas are registered on first use under the TopicIdStrategy subject {@code <topic>-value}.
 * Every Lahar service and tool reads and writes the topics through these, so all of them decode
 * into the generated classes the same way, inside Quarkus or not.
 *
 * <p>All serdes of one instance share one registry client whose HTTP connections time out
 * ({@link #CONNECT_TIMEOUT}, {@link #IDLE_TIMEOUT}). Why: the registry client built from the serde
 * configuration has no timeout at all, and waits on its answer with an unbounded
 * {@code CompletableFuture.get}; one lost answer to a schema registration once held a stream thread
 * (and a CI run) forever.
 *
 * <p>A registry that does not answer (refused or lost connection, silence past the idle timeout, an
 * HTTP 5xx or 429) is an outage, not a bad record: the call is sent again with a growing pause for
 * up to {@link #WAIT} (registration is find-or-create, so a repeat is harmless), then fails with a
 * {@link TransientFailure}, which every consumer treats as "try this record again later", never as
 * a reason to dead-letter it. The wait stays under a Kafka Streams transaction's timeout (30 s), so
 * a stream thread that waits here does not lose its transaction. {@link #outage()} says whether the
 * registry is failing now, for the services' readiness.
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
                throw new IllegalArgumentException("cannot read the registry credentials in " + file + ": " + e.getMessage(), e);
            }
            return new Credentials(p.getProperty("username"), p.getProperty("password"));
        }

        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=***]";
        }
    }

    private final String registryUrl;
    private final Credentials credentials;
    private final Duration idleTimeout;
    private final Duration wait;
    private RegistryClient registryClient;
    private RegistryClientFacade client;
    /** Null while the registry answers; else since when, and why, it has not. */
    private volatile Outage outage;

    private record Outage(Instant since, Instant lastTried, String reason) {
    }

    /** @param registryUrl the Apicurio Registry v3 API, e.g. http://127.0.0.1:8080/apis/registry/v3 */
    public RegistrySerdes(String registryUrl) {
        this(registryUrl, null, IDLE_TIMEOUT, WAIT);
    }

    /** A registry that wants credentials ({@code credentials} null: an open one). */
    public RegistrySerdes(String registryUrl, Credentials credentials) {
        this(registryUrl, credentials, IDLE_TIMEOUT, WAIT);
    }

    /** @param wait how long one call keeps trying a registry that does not answer ({@link #WAIT} by default) */
    public RegistrySerdes(String registryUrl, Duration wait) {
        this(registryUrl, null, IDLE_TIMEOUT, wait);
    }

    /** With another idle timeout (whole seconds), for tests of a registry that does not answer. */
    RegistrySerdes(String registryUrl, Duration idleTimeout, Duration wait) {
        this(registryUrl, null, idleTimeout, wait);
    }

    private RegistrySerdes(String registryUrl, Credentials credentials, Duration idleTimeout, Duration wait) {
        this.registryUrl = registryUrl;
        this.credentials = credentials;
        this.idleTimeout = idleTimeout;
        this.wait = wait;
    }

    /**
     * The serde of a topic whose values are {@code type}. It asks the registry once per topic (to
     * register or find the schema) and once per writer schema id (to learn it), then encodes and
     * decodes with one cached datum writer and one reader per writer schema id: see
     * {@link CachingAvroSerializer} and {@link CachingAvroDeserializer}. Thread-safe.
     */
    public <T extends SpecificRecord> Serde<T> value(Class<T> type) {
        Serde<Object> serde = genericSerde();
        return Serdes.serdeFrom(new CachingAvroSerializer<>(type, serde.serializer()),
                new CachingAvroDeserializer<>(type, serde.deserializer()));
    }

    /**
     * The serializer of a topic whose values are {@code type} for values that write their own binary
     * ({@link CachingAvroSerializer.Direct}); the same header, registration and bytes as
     * {@link #value(Class)}'s serializer. Thread-safe.
     */
    public <T extends SpecificRecord> Serializer<CachingAvroSerializer.Direct<T>> directValue(Class<T> type) {
        CachingAvroSerializer<T> caching = new CachingAvroSerializer<>(type, genericSerde().serializer());
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
     * A registry call, sent again while the registry does not answer, for up to {@link #wait}.
     * Apicurio's own retries do not cover this: its client's retry looks only at the outermost
     * exception, which its adapter wraps, and its cache retries only HTTP 429. Cheap: the caching
     * serdes call the registry serde for the first record of a topic or writer schema only.
     *
     * @throws TransientFailure when the registry has not answered for {@link #wait}
     */
    private <T> T retried(Supplier<T> call) {
        long deadline = System.nanoTime() + wait.toNanos();
        long delay = FIRST_RETRY_DELAY_MS;
        while (true) {
            RuntimeException failure;
            try {
                T result = call.get();
                outage = null;
                return result;
            } catch (RuntimeException e) {
                if (!unanswered(e)) {
                    // An answer, if not the one hoped for (no such schema id, a record that does not decode).
                    outage = null;
                    throw e;
                }
                failure = e;
            }
            Outage before = outage;
            Instant now = Instant.now();
            outage = new Outage(before == null ? now : before.since(), now, DeadLetters.reason(failure));
            if (System.nanoTime() + delay * 1_000_000 >= deadline) {
                throw new TransientFailure("the schema registry at " + registryUrl + " has not answered for "
                        + wait.toSeconds() + " s", failure);
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new TransientFailure("interrupted while waiting for the schema registry at " + registryUrl, failure);
            }
            delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        }
    }

    /**
     * The registry did not answer: a connection that could not be opened, closed, failed or timed
     * out, or an HTTP 5xx or 429. Not an I/O error of decoding (a truncated record's EOFException),
     * nor a 4xx answer (no such schema id), which must reach the dead-letter path at once.
     */
    static boolean unanswered(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof HttpClosedException || cause instanceof SocketException
                    || cause instanceof SocketTimeoutException || cause instanceof TimeoutException) return true;
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
        Outage current = outage;
        if (current == null) return Optional.empty();
        if (Instant.now().isAfter(current.lastTried().plus(PROBE_AFTER))) {
            current = probe(current);
            if (current == null) return Optional.empty();
        }
        return Optional.of("the schema registry at " + registryUrl + " has not answered since " + current.since() + ": "
                + current.reason());
    }

    /**
     * The serde settings. A serde configured with these alone builds its own registry client,
     * without timeouts: use {@link #value} or {@link #genericSerde} for anything that runs.
     */
    public Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>();
        config.put(SerdeConfig.REGISTRY_URL, registryUrl);
        if (credentials != null) {
            config.put(SchemaResolverConfig.AUTH_USERNAME, credentials.username());
            config.put(SchemaResolverConfig.AUTH_PASSWORD, credentials.password());
        }
        config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, true);
        config.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
        return config;
    }

    /** One request of its own (the registry's system info): the outage ends, or is noted as still on. */
    private Outage probe(Outage current) {
        try {
            client();
            registryClient.system().info().get();
            outage = null;
            return null;
        } catch (RuntimeException e) {
            if (!unanswered(e)) {
                outage = null;
                return null;
            }
            Outage still = new Outage(current.since(), Instant.now(), DeadLetters.reason(e));
            outage = still;
            return still;
        }
    }

    /** The registry client every serde of this instance uses, built on first use. */
    private synchronized RegistryClientFacade client() {
        if (client == null) {
            // Apicurio's process-wide Vert.x (the one its serdes use when given nothing), with a
            // web client of our own that carries the timeouts.
            var vertx = DefaultVertxInstance.get();
            WebClient web = WebClient.create(vertx, new WebClientOptions()
                    .setConnectTimeout((int) CONNECT_TIMEOUT.toMillis())
                    .setIdleTimeout((int) idleTimeout.toSeconds()));
            RegistryClientOptions options = RegistryClientOptions.create(registryUrl, vertx)
                    .customWebClient(web)
                    .disableRetry();
            if (credentials != null) {
                options.basicAuth(credentials.username(), credentials.password());
            }
            registryClient = RegistryClientFactory.create(options);
            client = new RegistryClientFacadeImpl(registryClient);
        }
        return client;
    }
}
