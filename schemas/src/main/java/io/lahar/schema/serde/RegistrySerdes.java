package io.lahar.schema.serde;

import io.apicurio.registry.client.RegistryClientFactory;
import io.apicurio.registry.client.common.DefaultVertxInstance;
import io.apicurio.registry.client.common.RegistryClientOptions;
import io.apicurio.registry.resolver.client.RegistryClientFacade;
import io.apicurio.registry.resolver.client.RegistryClientFacadeImpl;
import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
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
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * Avro serdes for the topic contract, backed by the schema registry. Values are written in the
 * Confluent wire format (magic byte and 4-byte schema id) so third-party clients interoperate;
 * schemas are registered on first use under the TopicIdStrategy subject {@code <topic>-value}.
 * Every Lahar service and tool reads and writes the topics through these, so all of them decode
 * into the generated classes the same way, inside Quarkus or not.
 *
 * <p>All serdes of one instance share one registry client whose HTTP connections time out
 * ({@link #CONNECT_TIMEOUT}, {@link #IDLE_TIMEOUT}) and whose requests are retried. Why: the
 * registry client built from the serde configuration has no timeout at all, and waits on its
 * answer with an unbounded {@code CompletableFuture.get}; one lost answer to a schema registration
 * once held a stream thread (and a CI run) forever. With the idle timeout a silent connection is
 * closed, the request fails and is sent again, {@value #ATTEMPTS} attempts in all (registration
 * is find-or-create, so a repeat is harmless).
 */
public final class RegistrySerdes {

    /** How long opening a connection to the registry may take. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long a connection with a request on it may stay silent before it is closed. */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    static final int ATTEMPTS = 4;
    private static final long FIRST_RETRY_DELAY_MS = 250;

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
    private RegistryClientFacade client;

    /** @param registryUrl the Apicurio Registry v3 API, e.g. http://127.0.0.1:8080/apis/registry/v3 */
    public RegistrySerdes(String registryUrl) {
        this(registryUrl, null, IDLE_TIMEOUT);
    }

    /** A registry that wants credentials ({@code credentials} null: an open one). */
    public RegistrySerdes(String registryUrl, Credentials credentials) {
        this(registryUrl, credentials, IDLE_TIMEOUT);
    }

    /** With another idle timeout (whole seconds), for tests of a registry that does not answer. */
    RegistrySerdes(String registryUrl, Duration idleTimeout) {
        this(registryUrl, null, idleTimeout);
    }

    private RegistrySerdes(String registryUrl, Credentials credentials, Duration idleTimeout) {
        this.registryUrl = registryUrl;
        this.credentials = credentials;
        this.idleTimeout = idleTimeout;
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
     * A registry call, sent again when its connection was lost or timed out. Apicurio's own retries
     * do not cover this: its client's retry looks only at the outermost exception, which its adapter
     * wraps, and its cache retries only HTTP 429. Cheap: the caching serdes call the registry serde
     * for the first record of a topic or writer schema only.
     */
    private static <T> T retried(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (attempt == ATTEMPTS || !lostConnection(e)) throw e;
                try {
                    Thread.sleep(FIRST_RETRY_DELAY_MS << (attempt - 1));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Only a connection that closed, failed or timed out: not an I/O error of decoding (a truncated
     * record's EOFException), which must reach the dead-letter path at once, not after the backoff.
     */
    static boolean lostConnection(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpClosedException || cause instanceof SocketException
                    || cause instanceof SocketTimeoutException) return true;
        }
        return false;
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
            client = new RegistryClientFacadeImpl(RegistryClientFactory.create(options));
        }
        return client;
    }
}
