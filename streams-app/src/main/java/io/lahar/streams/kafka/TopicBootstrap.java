package io.lahar.streams.kafka;

import io.lahar.schema.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * Creates the topics of the contract that do not exist yet, with the partition counts and
 * cleanup policies {@link Topics} fixes. Brokers run with auto-creation off, and Kafka Streams
 * refuses to start on missing source topics, so this runs before the topology starts.
 */
public final class TopicBootstrap {

    private static final Logger LOG = Logger.getLogger(TopicBootstrap.class);

    private TopicBootstrap() {
    }

    public static void ensureTopics(String bootstrapServers) {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000))) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>(Topics.all().stream()
                    .filter(t -> !existing.contains(t.name()))
                    .map(t -> new NewTopic(t.name(), t.partitions(), (short) 1)
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, t.cleanupPolicy())))
                    .toList());
            if (missing.isEmpty()) {
                return;
            }
            for (var entry : admin.createTopics(missing).values().entrySet()) {
                try {
                    entry.getValue().get();
                    LOG.infof("created topic %s", entry.getKey());
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
