package io.lahar.schema;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one place a service builds a Kafka client: every producer, consumer and admin client starts
 * from the same connection settings ({@link KafkaSettings}: the broker, {@code security.protocol},
 * {@code sasl.*}, {@code ssl.*}) and adds only its own. A client's own settings may not name a
 * connection setting, so no client can reach the cluster another way than the rest
 * ({@code KafkaClientsArchTest} holds every service's main code to constructing clients here).
 */
public final class KafkaClients {

    /**
     * How long closing a client may wait on the broker. A client's own close() waits for its
     * in-flight sends (a producer: for ever) or its group's leave (a consumer: 30 s): with the
     * broker away, a service's stop outlasted bin/stop's grace and a loop's restart never came.
     */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final Map<String, Object> connection;

    private KafkaClients(Map<String, Object> connection) {
        this.connection = Map.copyOf(connection);
    }

    /**
     * From a service's Kafka configuration (Quarkus' {@code default-kafka-broker} map: the
     * {@code kafka.} prefix without it), keeping the connection settings only.
     */
    public static KafkaClients of(Map<String, ?> settings) {
        return new KafkaClients(KafkaSettings.connection(settings));
    }

    /** A plaintext cluster at {@code bootstrapServers}. */
    public static KafkaClients plaintext(String bootstrapServers) {
        return new KafkaClients(KafkaSettings.plaintext(bootstrapServers));
    }

    public String bootstrapServers() {
        return (String) connection.get(KafkaSettings.BOOTSTRAP_SERVERS);
    }

    /** The connection settings (unmodifiable). */
    public Map<String, Object> connection() {
        return connection;
    }

    /** The connection settings with a client's {@code own} added. */
    public Map<String, Object> config(Map<String, ?> own) {
        own.keySet().stream()
                .filter(KafkaSettings::isConnectionSetting)
                .findFirst()
                .ifPresent(key -> {
                    throw new IllegalArgumentException(
                            key + " is a connection setting: it comes from the service's kafka. settings");
                });
        Map<String, Object> config = new HashMap<>(connection);
        config.putAll(own);
        return config;
    }

    public <K, V> KafkaProducer<K, V> producer(Map<String, ?> own, Serializer<K> keys, Serializer<V> values) {
        return new KafkaProducer<>(config(own), keys, values);
    }

    public <K, V> KafkaConsumer<K, V> consumer(Map<String, ?> own, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(config(own), keys, values);
    }

    public Admin admin(Map<String, ?> own) {
        return Admin.create(config(own));
    }

    /** Closes {@code producer} (if any) within {@link #CLOSE_TIMEOUT}, failing what it had not sent by then. */
    public static void close(Producer<?, ?> producer) {
        if (producer != null) producer.close(CLOSE_TIMEOUT);
    }

    /** Closes {@code consumer} (if any) within {@link #CLOSE_TIMEOUT}. */
    public static void close(Consumer<?, ?> consumer) {
        if (consumer != null) consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
    }

    /** Closes {@code admin} (if any) within {@link #CLOSE_TIMEOUT}. */
    public static void close(Admin admin) {
        if (admin != null) admin.close(CLOSE_TIMEOUT);
    }

    /** Names the cluster, never a password. */
    @Override
    public String toString() {
        return "KafkaClients[" + bootstrapServers() + ", " + connection.getOrDefault("security.protocol", "PLAINTEXT")
                + "]";
    }
}
