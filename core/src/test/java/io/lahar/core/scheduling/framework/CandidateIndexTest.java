package io.lahar.core.scheduling.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CandidateIndexTest {

    private static final String YAML = SchedulerConf.DEFAULT_YAML;

    @Test
    void decidesAsAFullScanEvenWhenClassesOutnumberItsCapacity() {
        // More distinct task classes than the index keeps, so classes are dropped and rebuilt.
        List<JobInfo> jobs = new ArrayList<>();
        for (int j = 0; j < CandidateIndex.MAX_CLASSES * 3; j++) {
            jobs.add(JobInfo.builder("j" + j).creationIndex(j % 7)
                    .tasks("w", 1 + j % 3, Map.of("cpu", (100 + 10 * j) + "m", "memory", (64 + j) + "Mi")).build());
        }
        Snapshot s = new Snapshot(Fixtures.nodes(13, "16", "64Gi"), List.of(), jobs);
        SessionResult indexed = new Scheduler(SchedulerConf.parse(YAML)).schedule(s);
        SessionResult scanned = new Scheduler(SchedulerConf.parse(
                YAML + "configurations:\n- name: allocate\n  arguments: {candidateIndex: false}\n")).schedule(s);
        assertThat(indexed.bindings()).isNotEmpty().containsExactlyElementsOf(scanned.bindings());
        assertThat(indexed.conditions()).isEqualTo(scanned.conditions());
    }
}
