package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BacklogTest {

    private static final TopicPartition INTENTS_0 = new TopicPartition("lahar.pod-intents", 0);
    private static final TopicPartition INTENTS_1 = new TopicPartition("lahar.pod-intents", 1);
    private static final TopicPartition DECISIONS_0 = new TopicPartition("lahar.scheduler-decisions", 0);

    private final Backlog backlog = new Backlog(DECISIONS_0.topic());

    @Test
    void eachPartitionsRecordsComeInTheirOrderThePartitionsInTurnAndDecisionsFirst() {
        backlog.addAll(records(INTENTS_0, 10, 3));
        backlog.addAll(records(INTENTS_1, 20, 2));
        backlog.addAll(records(DECISIONS_0, 5, 2));
        assertThat(backlog.size()).isEqualTo(7);

        List<String> taken = new ArrayList<>();
        for (var r = backlog.take(); r != null; r = backlog.take()) {
            taken.add(r.topic().substring(6, 9) + r.partition() + "@" + r.offset());
        }

        assertThat(taken).containsExactly("sch0@5", "sch0@6", "pod0@10", "pod1@20", "pod0@11", "pod1@21", "pod0@12");
        assertThat(backlog.isEmpty()).isTrue();
    }

    @Test
    void clearingTellsEachPartitionsOldestRecordLeft() {
        backlog.addAll(records(INTENTS_0, 10, 3));
        backlog.addAll(records(INTENTS_1, 20, 2));
        backlog.take();

        Map<TopicPartition, Long> from = backlog.clear();

        assertThat(from).containsExactlyInAnyOrderEntriesOf(Map.of(INTENTS_0, 11L, INTENTS_1, 20L));
        assertThat(backlog.isEmpty()).isTrue();
        assertThat(backlog.take()).isNull();
    }

    @Test
    void thePartitionsThatLeaveAreForgotten() {
        backlog.addAll(records(INTENTS_0, 10, 3));
        backlog.addAll(records(INTENTS_1, 20, 2));

        backlog.forget(Set.of(INTENTS_0));

        assertThat(backlog.size()).isEqualTo(2);
        assertThat(backlog.take().offset()).isEqualTo(20L);
        assertThat(backlog.take().offset()).isEqualTo(21L);
        assertThat(backlog.take()).isNull();
    }

    private static ConsumerRecords<String, byte[]> records(TopicPartition partition, long from, int count) {
        List<ConsumerRecord<String, byte[]>> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(new ConsumerRecord<>(partition.topic(), partition.partition(), from + i, "ns/j", new byte[0]));
        }
        Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> byPartition = new LinkedHashMap<>();
        byPartition.put(partition, list);
        Map<TopicPartition, OffsetAndMetadata> next = Map.of(partition, new OffsetAndMetadata(from + count));
        return new ConsumerRecords<>(byPartition, next);
    }
}
