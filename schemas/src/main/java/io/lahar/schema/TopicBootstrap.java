package io.lahar.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topics of the contract that do not exist yet, with the partition counts, cleanup
 * policies and codec {@link Topics} fixes, and gives topics that exist the contract's codec when
 * they have none of their own. Brokers run with auto-creation off, and Kafka Streams refuses to
 * start on missing source topics, so every service runs this before it starts consuming. The
 * replication factor is the broker's {@code default.replication.factor}: the cluster, not the
 * code, knows how many copies it can keep.
 */
public final class TopicBootstrap {

    private static final System.Logger LOG = System.getLogger(TopicBootstrap.class.getName());

    /**
     * The settings given to a topic that exists: they only decide how batches written from now on
     * are stored, so changing them loses nothing. The cleanup policy is not among them: turning a
     * log into a compacted topic would drop its records.
     */
    static final List<String> AT_REST =
            List.of(TopicConfig.COMPRESSION_TYPE_CONFIG, TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG);

    private TopicBootstrap() {}

    /** A topic of the contract to create: its partitions, the broker's replication factor, its settings. */
    public static NewTopic newTopic(Topics.TopicSpec topic) {
        return new NewTopic(topic.name(), Optional.of(topic.partitions()), Optional.empty()).configs(topic.configs());
    }

    public static void ensureTopics(String bootstrapServers) {
        ensureTopics(KafkaClients.plaintext(bootstrapServers));
    }

    /** @param connection the cluster's address and security settings ({@link KafkaSettings}) */
    public static void ensureTopics(Map<String, Object> connection) {
        ensureTopics(KafkaClients.of(connection));
    }

    public static void ensureTopics(KafkaClients clients) {
        String bootstrapServers = clients.bootstrapServers();
        Admin admin = clients.admin(Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
        try {
            Set<String> existing = admin.listTopics().names().get();
            createMissing(admin, existing);
            giveCodec(admin, existing);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot create Lahar topics on " + bootstrapServers + ": " + e.getCause(), e.getCause());
        } finally {
            // Bounded: an admin client's own close() waits for its pending calls without limit.
            KafkaClients.close(admin);
        }
    }

    private static void createMissing(Admin admin, Set<String> existing)
            throws InterruptedException, ExecutionException {
        List<NewTopic> missing = Topics.all().stream()
                .filter(t -> !existing.contains(t.name()))
                .map(TopicBootstrap::newTopic)
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
    }

    /**
     * Topics created before the contract named a codec (or by other tools) get it, so clients that
     * read gzip only can read what is written from now on. A setting an operator made on the topic
     * itself is left as it is; so are the topics when Lahar may not change them (a principal
     * without DescribeConfigs or AlterConfigs, a broker's policy): a warning, not a service that
     * will not start.
     */
    private static void giveCodec(Admin admin, Set<String> existing) throws InterruptedException, ExecutionException {
        List<ConfigResource> resources = Topics.all().stream()
                .filter(t -> existing.contains(t.name()))
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.name()))
                .toList();
        if (resources.isEmpty()) {
            return;
        }
        try {
            Map<ConfigResource, Config> current =
                    admin.describeConfigs(resources).all().get();
            Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
            current.forEach((resource, config) -> {
                List<AlterConfigOp> ops = changes(Topics.byName(resource.name()).orElseThrow(), config);
                if (!ops.isEmpty()) {
                    changes.put(resource, ops);
                }
            });
            if (changes.isEmpty()) {
                return;
            }
            admin.incrementalAlterConfigs(changes).all().get();
            LOG.log(System.Logger.Level.INFO, "gave {0} topics the contract''s {1}", changes.size(), AT_REST);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof AuthorizationException || e.getCause() instanceof PolicyViolationException)) {
                throw e;
            }
            LOG.log(
                    System.Logger.Level.WARNING,
                    "cannot give the topics the contract''s {0} ({1}): a client that reads "
                            + "gzip only (kafkajs) may not read what is written to them; see docs/topics.md, Compression",
                    AT_REST,
                    e.getCause().getMessage());
        }
    }

    /** The settings of {@link #AT_REST} the topic lacks: those it has neither set itself nor with the contract's value. */
    static List<AlterConfigOp> changes(Topics.TopicSpec topic, Config config) {
        List<AlterConfigOp> ops = new ArrayList<>();
        for (String name : AT_REST) {
            String wanted = topic.configs().get(name);
            ConfigEntry entry = config.get(name);
            boolean setOnTopic = entry != null && entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG;
            if (!setOnTopic && (entry == null || !wanted.equals(entry.value()))) {
                ops.add(new AlterConfigOp(new ConfigEntry(name, wanted), AlterConfigOp.OpType.SET));
            }
        }
        return ops;
    }
}
