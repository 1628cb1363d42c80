package io.lahar.schema.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PriorityClass;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PriorityClassCodecTest {

    private static PriorityClass pc(Integer value, String policy) {
        return new PriorityClass(
                PriorityClass.API_VERSION,
                PriorityClass.KIND,
                ObjectMeta.named("gentle"),
                value,
                true,
                "waits its turn",
                policy);
    }

    @Test
    void theRecordKeepsEveryFieldTheSchedulerResolvesAndReadsBackTheSameClass() {
        Instant at = Instant.parse("2026-12-05T10:00:00Z");
        for (String policy : new String[] {"Never", "PreemptLowerPriority", null}) {
            io.lahar.schema.PriorityClass record = PriorityClassCodec.toRecord(pc(1000, policy), at);
            assertThat(record.getPreemptionPolicy()).isEqualTo(policy);
            assertThat(record.getTime()).isEqualTo(at);
            assertThat(PriorityClassCodec.toPriorityClass(record)).isEqualTo(pc(1000, policy));
        }
    }

    @Test
    void aClassWithoutAValueHasNoRecord() {
        assertThatThrownBy(() -> PriorityClassCodec.toRecord(pc(null, null), Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value: required");
    }
}
