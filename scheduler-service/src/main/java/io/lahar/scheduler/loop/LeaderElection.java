package io.lahar.scheduler.loop;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
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
 *
 * <p>A poll that fails (anything but the wake-up of {@link #stop()}) ends the membership, not the
 * election: the instance is deposed, closes its consumer within a bound and, after a pause that
 * doubles as failures repeat, rejoins with a new consumer, until {@link #stop()}. Otherwise one
 * unexpected error left the instance neither leader nor candidate for good while it looked alive.
 */
public final class LeaderElection implements Runnable {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);
    static final TopicPartition LEASE = new TopicPartition(Topics.NODES.name(), 0);

    private final Map<String, Object> config = new HashMap<>();
    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumers;
    private final Runnable onElected;
    private final Runnable onDeposed;
    private final Backoff backoff;
    private volatile boolean leader;
    private volatile Consumer<byte[], byte[]> consumer;
    private volatile long rejoins;

    /**
     * @param consumers      makes each membership's consumer from the election's settings, e.g.
     *                       {@link #through(KafkaClients)}
     * @param groupId        the election group, the same for every instance of one deployment
     * @param instanceId     a stable identity per instance (static membership), if it has one
     * @param sessionTimeout how long a silent leader keeps its leadership; no shorter than the
     *                       transaction timeout
     */
    public LeaderElection(
            Function<Map<String, Object>, Consumer<byte[], byte[]>> consumers,
            String groupId,
            Optional<String> instanceId,
            Duration sessionTimeout,
            Runnable onElected,
            Runnable onDeposed) {
        this(consumers, groupId, instanceId, sessionTimeout, onElected, onDeposed, Backoff.FIRST);
    }

    /** Pausing from {@code firstPause} after a failed membership (tests). */
    LeaderElection(
            Function<Map<String, Object>, Consumer<byte[], byte[]>> consumers,
            String groupId,
            Optional<String> instanceId,
            Duration sessionTimeout,
            Runnable onElected,
            Runnable onDeposed,
            Duration firstPause) {
        this.consumers = consumers;
        this.onElected = onElected;
        this.onDeposed = onDeposed;
        this.backoff = new Backoff(firstPause, Backoff.MAX, Backoff.STEADY);
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

    /** The election's consumers as the service's {@code kafka.} settings reach Kafka. */
    public static Function<Map<String, Object>, Consumer<byte[], byte[]>> through(KafkaClients kafka) {
        return config -> kafka.consumer(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    public boolean isLeader() {
        return leader;
    }

    /** How many times a failed membership was followed by a new one. */
    public long rejoins() {
        return rejoins;
    }

    public void stop() {
        backoff.stop();
        Consumer<byte[], byte[]> c = consumer;
        if (c != null) c.wakeup();
    }

    @Override
    public void run() {
        while (!backoff.stopped()) {
            long joined = System.nanoTime();
            try {
                member();
                return;
            } catch (RuntimeException e) {
                if (backoff.stopped()) return;
                Duration lasted = Duration.ofNanos(System.nanoTime() - joined);
                LOG.errorf(
                        e,
                        "leader election failed; rejoining in %d ms",
                        backoff.next(lasted).toMillis());
            }
            if (!backoff.pause()) return;
            rejoins++;
        }
    }

    /** One membership of the group, until stop() (returns) or a failure (throws); deposed either way. */
    private void member() {
        Consumer<byte[], byte[]> c = consumers.apply(Map.copyOf(config));
        try {
            consumer = c;
            // stop() may have come before the consumer was there to wake.
            if (backoff.stopped()) return;
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
                while (!backoff.stopped()) c.poll(Duration.ofMillis(500));
            } catch (WakeupException e) {
                if (!backoff.stopped()) throw e;
            }
        } finally {
            consumer = null;
            // Stop the loop before leaving the group, so the successor starts after it stopped.
            depose(List.of(LEASE));
            try {
                KafkaClients.close(c);
            } catch (RuntimeException e) {
                LOG.warn("closing the election's consumer failed", e);
            }
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
