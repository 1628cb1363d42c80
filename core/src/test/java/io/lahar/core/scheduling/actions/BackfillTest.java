package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackfillTest {

    @Test
    void placesBestEffortTasksWhateverTheQueueShare() {
        // Queue a is capped at 1 cpu and already full; its best-effort job still gets pod slots.
        var queues = List.of(QueueInfo.of("a", 1).withCapability(Map.of("cpu", "1")));
        JobInfo full = Fixtures.running("full", "a", 0, "1", "n0");
        JobInfo be = JobInfo.builder("be")
                .queue("a")
                .tasks("w", 3, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(Fixtures.defaultTiers("backfill"), nodes(2, "1", "4Gi"), queues, List.of(full, be));
        assertThat(r.bindingsOf(key("be")))
                .hasSize(3)
                .allSatisfy(b -> assertThat(b.action()).isEqualTo("backfill"));
    }

    @Test
    void respectsPodLimitsAndGangs() {
        var tiny = List.of(io.lahar.core.scheduling.api.NodeInfo.builder("tiny")
                .allocatable(Map.of("cpu", "1", "memory", "1Gi", "pods", "2"))
                .build());
        JobInfo be = JobInfo.builder("be")
                .tasks("w", 3, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(Fixtures.defaultTiers("backfill"), tiny, List.of(), List.of(be));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("be")).message()).contains("Too many pods");
    }
}
