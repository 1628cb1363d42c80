package io.lahar.schema.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.QueueAdmission;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueCodecTest {

    static Queue queue(String name, Queue.QueueSpec spec, QueueState state) {
        return new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named(name),
                spec,
                state == null ? null : Queue.QueueStatus.of(state));
    }

    @Test
    void encodesEveryFieldTheRecordHas() {
        Queue q = queue(
                "ml",
                new Queue.QueueSpec(
                        3,
                        Map.of("memory", "16Gi", "cpu", "8"),
                        false,
                        null,
                        "research",
                        new Queue.Guarantee(Map.of("cpu", "2")),
                        Map.of("cpu", "4"),
                        null,
                        null,
                        null,
                        5),
                QueueState.Closed);

        io.lahar.schema.Queue r = QueueCodec.toRecord(q, 1_700_000_000_000L);

        assertThat(r.getName()).isEqualTo("ml");
        assertThat(r.getWeight()).isEqualTo(3);
        assertThat(r.getCapability()).containsExactly(Map.entry("cpu", "8"), Map.entry("memory", "16Gi"));
        assertThat(r.getGuarantee()).containsExactly(Map.entry("cpu", "2"));
        assertThat(r.getDeserved()).containsExactly(Map.entry("cpu", "4"));
        assertThat(r.getReclaimable()).isFalse();
        assertThat(r.getParent()).isEqualTo("research");
        assertThat(r.getState()).isEqualTo(io.lahar.schema.QueueState.Closed);
        assertThat(r.getPriority()).isEqualTo(5);
        assertThat(r.getTime()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
    }

    @Test
    void anUnsetSpecEncodesVolcanosDefaults() {
        io.lahar.schema.Queue r = QueueCodec.toRecord(queue("bare", null, null), 0);

        assertThat(r.getWeight()).isEqualTo(1);
        assertThat(r.getReclaimable()).isTrue();
        assertThat(r.getParent()).isNull();
        assertThat(r.getState()).isEqualTo(io.lahar.schema.QueueState.Open);
        assertThat(r.getCapability()).isEmpty();
    }

    @Test
    void anAdmittedQueueSurvivesTheRoundTrip() {
        Queue admitted = QueueAdmission.create(
                        queue(
                                "team-a",
                                new Queue.QueueSpec(
                                        2, Map.of("cpu", "8"), null, null, null, null, null, null, null, null, null),
                                QueueState.Closed),
                        AdmissionContext.freshInstall())
                .object();

        Queue back = QueueCodec.toQueue(QueueCodec.toRecord(admitted, 42));

        assertThat(back.name()).isEqualTo("team-a");
        assertThat(back.spec().weight()).isEqualTo(2);
        assertThat(back.spec().capability()).isEqualTo(Map.of("cpu", "8"));
        assertThat(back.spec().reclaimable()).isTrue();
        assertThat(back.parentOrRoot()).isEqualTo("root");
        assertThat(back.stateOrOpen()).isEqualTo(QueueState.Closed);
        // what admission compares on update must not see a change after the trip
        assertThat(QueueAdmission.update(
                                back, back, AdmissionContext.freshInstall().with(back))
                        .accepted())
                .isTrue();
        assertThat(QueueCodec.toRecord(back, 42)).isEqualTo(QueueCodec.toRecord(admitted, 42));
    }

    @Test
    void emptyMapsDecodeAsAbsent() {
        Queue back = QueueCodec.toQueue(QueueCodec.toRecord(queue("q", null, QueueState.Open), 0));

        assertThat(back.spec().capability()).isNull();
        assertThat(back.spec().deserved()).isNull();
        assertThat(back.spec().guarantee()).isNull();
    }

    @Test
    void anUnknownStateStaysUnknown() {
        io.lahar.schema.Queue r = QueueCodec.toRecord(queue("q", null, QueueState.Open), 0);
        r.setState(io.lahar.schema.QueueState.Unknown);

        assertThat(QueueCodec.toQueue(r).stateOrOpen()).isEqualTo(QueueState.Unknown);
    }
}
