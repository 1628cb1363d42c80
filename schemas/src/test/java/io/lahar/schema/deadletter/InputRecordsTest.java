package io.lahar.schema.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.DeletePod;
import io.lahar.schema.Node;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.Topics;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/** The rules of every input record, with a deserializer that hands back a fixed record. */
class InputRecordsTest {

    private static final Node NODE_B = Node.newBuilder()
            .setName("b")
            .setAllocatable(Map.of())
            .setTime(Instant.EPOCH)
            .build();

    private static <T extends org.apache.avro.specific.SpecificRecord> Deserializer<T> giving(T record) {
        return (topic, bytes) -> record;
    }

    @Test
    void aRecordKeyedByItsOwnObjectIsRead() {
        assertThat(InputRecords.read(Topics.NODES, "b", new byte[1], giving(NODE_B)))
                .isSameAs(NODE_B);
    }

    @Test
    void onACompactedTopicTheKeyIsTheIdentity() {
        assertThatThrownBy(() -> InputRecords.read(Topics.NODES, "a", new byte[1], giving(NODE_B)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key: the record key \"a\" does not match the record's own node name \"b\"");
        Queue queue =
                Queue.newBuilder().setName("relia-q").setTime(Instant.EPOCH).build();
        assertThatThrownBy(() -> InputRecords.read(Topics.QUEUES, "other-q", new byte[1], giving(queue)))
                .hasMessageContaining("\"relia-q\"");
    }

    @Test
    void aJobsRecordsAreKeyedByTheJob() {
        PodIntent intent = PodIntent.newBuilder()
                .setNamespace("team")
                .setJob("tf")
                .setJobUid("u")
                .setTime(Instant.EPOCH)
                .setIntent(DeletePod.newBuilder()
                        .setPod("tf-worker-0")
                        .setReason("test")
                        .build())
                .build();
        assertThat(InputRecords.identity(intent)).isEqualTo("team/tf");
        assertThatThrownBy(() -> InputRecords.read(Topics.POD_INTENTS, "team/other", new byte[1], giving(intent)))
                .hasMessage(
                        "key: the record key \"team/other\" does not match the record's own namespace/name of the Job"
                                + " the pod or plugin object belongs to \"team/tf\"");
    }

    @Test
    void everyRecordHasAKey() {
        assertThatThrownBy(() -> InputRecords.read(Topics.NODES, null, new byte[1], giving(NODE_B)))
                .hasMessage("key: the record has no key; lahar.nodes is keyed by node name");
        assertThatThrownBy(() -> InputRecords.read(Topics.NODES, "", null, giving(NODE_B)))
                .hasMessage("key: the record has an empty key; lahar.nodes is keyed by node name");
    }

    @Test
    void onlyACompactedTopicHasTombstones() {
        assertThat(InputRecords.read(Topics.NODES, "b", null, giving(NODE_B))).isNull();
        assertThatThrownBy(() -> InputRecords.read(Topics.POD_INTENTS, "team/tf", null, giving(NODE_B)))
                .hasMessage(
                        "value: the record has no value, and lahar.pod-intents has no tombstones (it is not compacted)");
    }

    @Test
    void aTickIsKeyedByItsPartition() {
        InputRecords.requireClockKey(Topics.CLOCK, "3", 3);
        assertThatThrownBy(() -> InputRecords.requireClockKey(Topics.CLOCK, "4", 3))
                .hasMessage(
                        "key: the record key \"4\" is not the number of its partition, 3: lahar.clock is keyed by the "
                                + "partition number, as a decimal string");
    }
}
