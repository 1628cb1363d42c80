package io.lahar.scheduler.loop;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

/**
 * Chooses which of several scheduler instances runs the loop, so a standby takes over when the
 * active one dies: every instance joins one consumer group on a single-partition topic
 * ({@code lahar.nodes}); the member that holds the partition is the leader.
 *
 * <p>The sticky assignor keeps the partition with its holder when a standby joins, so starting a
 * standby does not move leadership. When the leader leaves or its session times out, the partition
 * moves and {@code onElected} runs on the new holder, whose loop then fences any zombie with the
 * transactional id. {@code onDeposed} runs (and must return only once the loop stopped writing)
 * before the partition is handed over. The session timeout is at least the transaction timeout,
 * so by the time a standby is elected, a transaction the dead leader left open has timed out too;
 * a static {@code group.instance.id} lets a restarted leader rejoin without handing over.
 */
public final class LeaderElection implements Runnable {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);
    static final TopicPartition LEASE = new TopicPartition(Topics.NODES.name(), 0);

    private final KafkaClients kafka;
    private final Map<String, Object> config = new HashMap<>();
    private final Runnable onElected;
    private final Runnable onDeposed;
    private volatile boolean leader;
    private volatile boolean stopRequested;
    private volatile KafkaConsumer<byte[], byte[]> consumer;

    /**
     * @param groupId        the election group, the same for every instance of one deployment
     * @param instanceId     a stable identity per instance (static membership), if it has one
     * @param sessionTimeout how long a silent leader keeps its leadership; no shorter than the
     *                       transaction timeout
     */
    public LeaderElection(
            String bootstrapServers,
            String groupId,
            Optional<String> instanceId,
            Duration sessionTimeout,
            Runnable onElected,
            Runnable onDeposed) {
        this(KafkaClients.plaintext(bootstrapServers), groupId, instanceId, sessionTimeout, onElected, onDeposed);
    }

    /** @param kafka how the election's consumer reaches Kafka (the service's kafka. settings) */
    public LeaderElection(
            KafkaClients kafka,
            String groupId,
            Optional<String> instanceId,
            Duration sessionTimeout,
            Runnable onElected,
            Runnable onDeposed) {
        this.kafka = kafka;
        this.onElected = onElected;
        this.onDeposed = onDeposed;
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        instanceId.ifPresent(id -> config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(500, sessionTimeout.toMillis() / 6));
        config.put(
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                List.of(CooperativeStickyAssignor.class.getName()));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
    }

    public boolean isLeader() {
        return leader;
    }

    public void stop() {
        stopRequested = true;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) c.wakeup();
    }

    @Override
    public void run() {
        try (KafkaConsumer<byte[], byte[]> c =
                kafka.consumer(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer = c;
            c.subscribe(List.of(LEASE.topic()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (partitions.contains(LEASE) && !leader) {
                        leader = true;
                        LOG.info("elected scheduler leader");
                        onElected.run();
                    }
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    depose(partitions);
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    depose(partitions);
                }
            });
            // The records are not needed, only the assignment; polling also keeps the membership.
            try {
                while (!stopRequested) c.poll(Duration.ofMillis(500));
            } catch (WakeupException e) {
                // stop() was called
            }
            // Stop the loop before leaving the group, so the successor starts after it stopped.
            depose(List.of(LEASE));
        } finally {
            consumer = null;
            depose(List.of(LEASE));
        }
    }

    private void depose(Collection<TopicPartition> partitions) {
        if (partitions.contains(LEASE) && leader) {
            leader = false;
            LOG.info("no longer the scheduler leader");
            onDeposed.run();
        }
    }
}
