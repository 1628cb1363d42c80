package io.lahar.system.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Every consumer group's lag on the run's broker (records between its committed offset and the
 * last stable offset, over all its partitions), as the console's lag gauge measures it.
 */
final class LagSampler implements AutoCloseable {

    private final Admin admin;

    LagSampler(Map<String, Object> kafka) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "bench-system-lag");
        this.admin = Admin.create(config);
    }

    /** Group id to its lag now, sorted by group id. */
    Map<String, Long> sample() throws Exception {
        Map<String, Long> lag = new TreeMap<>();
        for (GroupListing g :
                admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(g.groupId())
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            var ends = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get(10, TimeUnit.SECONDS);
            long total = 0;
            for (var e : committed.entrySet()) {
                if (e.getValue() != null && ends.containsKey(e.getKey())) {
                    total += Math.max(
                            0, ends.get(e.getKey()).offset() - e.getValue().offset());
                }
            }
            lag.put(g.groupId(), total);
        }
        return lag;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
