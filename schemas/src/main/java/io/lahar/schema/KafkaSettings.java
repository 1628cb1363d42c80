package io.lahar.schema;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What every Kafka client of Lahar is given, whichever service or command makes it: the broker's
 * address and the standard security settings ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}), from ONE place. In the services that place is the {@code kafka.} configuration
 * prefix (Quarkus' {@code default-kafka-broker} map, which its Kafka Streams extension also
 * reads), so {@code kafka.security.protocol=SASL_SSL} reaches the command gateway, the ticker,
 * the scheduler's loop and the bridge's consumer as it reaches Kafka Streams; in the CLI it is a
 * client properties file ({@code --kafka-config}). Each client adds its own settings (serializers,
 * group, isolation) to a copy.
 *
 * <p>Only connection settings are taken: a producer's {@code linger.ms} under {@code kafka.}
 * must not make every consumer and admin client warn about a setting it does not know.
 */
public final class KafkaSettings {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";

    private KafkaSettings() {}

    /** Whether {@code key} (without prefix) is a setting every client needs to reach the cluster. */
    public static boolean isConnectionSetting(String key) {
        return key.equals(BOOTSTRAP_SERVERS)
                || key.equals("security.protocol")
                || key.startsWith("sasl.")
                || key.startsWith("ssl.")
                || key.equals("client.dns.lookup")
                // Quarkus' TLS registry: its ssl.engine.factory.class finds its configuration by this name.
                || key.equals("tls-configuration-name");
    }

    /**
     * The connection settings of {@code source} (keys without prefix), in a new map a client may add to.
     * {@code source} may hold the values as written or as Kafka parsed them (a Streams processor's
     * {@code appConfigs()}: {@code bootstrap.servers} is a list there).
     */
    public static Map<String, Object> connection(Map<String, ?> source) {
        Map<String, Object> out = new HashMap<>();
        source.forEach((k, v) -> {
            if (v != null && isConnectionSetting(k)) {
                out.put(k, v);
            }
        });
        // Kafka's parsed form of its LIST setting, as a processor's appConfigs() hold it.
        if (out.get(BOOTSTRAP_SERVERS) instanceof List<?> servers) {
            out.put(
                    BOOTSTRAP_SERVERS,
                    String.join(",", servers.stream().map(Object::toString).toList()));
        }
        if (!(out.get(BOOTSTRAP_SERVERS) instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException(BOOTSTRAP_SERVERS + " is not set");
        }
        return out;
    }

    /** Just the broker's address: a plaintext cluster. */
    public static Map<String, Object> plaintext(String bootstrapServers) {
        return connection(Map.of(BOOTSTRAP_SERVERS, bootstrapServers));
    }

    /**
     * The connection settings of a client properties file (as {@code kafka-console-consumer
     * --consumer.config} reads one) with {@code bootstrapServers} (when not null) taking the place
     * of the file's. The file may hold a password: it is read, never written back or printed.
     */
    public static Map<String, Object> fromFile(Path file, String bootstrapServers) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the Kafka client settings in " + file + ": " + e.getMessage(), e);
        }
        Map<String, Object> all = new HashMap<>();
        p.stringPropertyNames().forEach(k -> all.put(k, p.getProperty(k)));
        if (bootstrapServers != null) {
            all.put(BOOTSTRAP_SERVERS, bootstrapServers);
        }
        return connection(all);
    }
}
