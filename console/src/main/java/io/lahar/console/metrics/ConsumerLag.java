package io.lahar.console.metrics;

import io.lahar.schema.KafkaClients;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * {@code lahar_consumer_lag{group,topic}}: how many records each Lahar service's consumer group
 * has not yet committed past, per topic (the committed end of a partition, read_committed, less
 * the group's committed offset, summed over its partitions). The groups are those whose id matches
 * {@code lahar.console.lag.groups}; the streams-app's group is its application id.
 */
public final class ConsumerLag implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ConsumerLag.class);

    private final Admin admin;
    private final Pattern groups;
    private final MultiGauge lag;

    public ConsumerLag(KafkaClients kafka, Pattern groups, MeterRegistry registry) {
        this.admin = kafka.admin(Map.of(
                AdminClientConfig.CLIENT_ID_CONFIG, "lahar-console-lag",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000));
        this.groups = groups;
        this.lag = MultiGauge.builder("lahar.consumer.lag")
                .description("Records a Lahar consumer group has not committed past, by group and topic")
                .register(registry);
    }

    /** Measures every matching group now; a broker that does not answer leaves the last values. */
    public void refresh() {
        try {
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            for (ConsumerGroupListing g : admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS)) {
                if (!groups.matcher(g.groupId()).matches()) {
                    continue;
                }
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(g.groupId())
                        .partitionsToOffsetAndMetadata()
                        .get(10, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(
                                latest,
                                new org.apache.kafka.clients.admin.ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all()
                        .get(10, TimeUnit.SECONDS);
                Map<String, Long> byTopic = new HashMap<>();
                committed.forEach((tp, offset) -> {
                    if (offset != null && ends.containsKey(tp)) {
                        byTopic.merge(tp.topic(), Math.max(0, ends.get(tp).offset() - offset.offset()), Long::sum);
                    }
                });
                byTopic.forEach(
                        (topic, n) -> rows.add(MultiGauge.Row.of(Tags.of("group", g.groupId(), "topic", topic), n)));
            }
            lag.register(rows, true);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debugf("could not measure the consumer groups' lag: %s", e.toString());
        }
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
