package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.PodGroupPhase;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OvercommitTest {

    @Test
    void inqueueGroupsCountAgainstIdle() {
        // An already admitted 4-cpu gang that holds nothing yet leaves 4.8 - 4 = 0.8 cpu for newcomers.
        JobInfo admitted = JobInfo.builder("admitted").tasks("w", 4, Map.of("cpu", "1")).phase(PodGroupPhase.Inqueue)
                .creationIndex(1).build();
        SessionResult r = run(Fixtures.defaultTiers("enqueue"), nodes(2, "2", "8Gi"), List.of(),
                List.of(admitted, gang("next", "default", 1, 1, "1")));
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Pending);
    }

    @Test
    void aGroupWithoutMinResourcesIsAlwaysAdmitted() {
        JobInfo free = JobInfo.builder("free").tasks("w", 1, Map.of()).build();
        SessionResult r = run(Fixtures.defaultTiers("enqueue"), nodes(1, "1", "1Gi"), List.of(),
                List.of(gang("big", "default", 1, 1, "1"), free));
        assertThat(r.phaseOf(key("free"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void rejectsAFactorBelowOne() {
        assertThatThrownBy(() -> new Overcommit(Arguments.of(Overcommit.FACTOR, 0.5))).hasMessageContaining("at least 1.0");
    }
}
