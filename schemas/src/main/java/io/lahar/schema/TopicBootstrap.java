package io.lahar.schema;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * Creates the topics of the contract that do not exist yet, with the partition counts and
 * cleanup policies {@link Topics} fixes. Brokers run with auto-creation off, and Kafka Streams
 * refuses to start on missing source topics, so every service runs this before it starts
 * consuming. The replication factor is the broker's {@code default.replication.factor}: the
 * cluster, not the code, knows how many copies it can keep.
 */
public final class TopicBootstrap {

    private static final System.Logger LOG = System.getLogger(TopicBootstrap.class.getName());

    private TopicBootstrap() {
    }

    public static void ensureTopics(String bootstrapServers) {
        ensureTopics(KafkaSettings.plaintext(bootstrapServers));
    }

    /** @param connection the cluster's address and security settings ({@link KafkaSettings}) */
    public static void ensureTopics(Map<String, Object> connection) {
        Map<String, Object> config = new java.util.HashMap<>(connection);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        Object bootstrapServers = connection.get(KafkaSettings.BOOTSTRAP_SERVERS);
        try (Admin admin = Admin.create(config)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = Topics.all().stream()
                    .filter(t -> !existing.contains(t.name()))
                    .map(t -> new NewTopic(t.name(), Optional.of(t.partitions()), Optional.empty())
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, t.cleanupPolicy())))
                    .toList();
            if (missing.isEmpty()) {
                return;
            }
            for (var entry : admin.createTopics(missing).values().entrySet()) {
                try {
                    entry.getValue().get();
                    LOG.log(System.Logger.Level.INFO, "created topic {0}", entry.getKey());
                } catch (ExecutionException e) {
                    // Another service may create the same topic at the same moment.
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create Lahar topics on " + bootstrapServers + ": " + e.getCause(), e.getCause());
        }
    }
}
