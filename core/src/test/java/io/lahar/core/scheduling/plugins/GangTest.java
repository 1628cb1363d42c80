package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GangTest {

    @Test
    void placesUpToEveryTaskOnceMinMemberFits() {
        // 5 tasks, minMember 3, room for 4: the gang runs with 4.
        JobInfo j = JobInfo.builder("j")
                .tasks("w", 5, Map.of("cpu", "1"))
                .minMember(3)
                .build();
        SessionResult r = run(nodes(2, "2", "8Gi"), List.of(), List.of(j));
        assertThat(boundIn(r, key("j"))).isEqualTo(4);
        assertThat(r.conditions().get(key("j")).type()).isEqualTo(SessionResult.PodGroupCondition.SCHEDULED);
    }

    @Test
    void minTaskMemberIsPerRole() {
        // 2 ps + 4 workers, minMember 3 but at least 2 ps. ps pods are big: only one fits per node.
        JobInfo j = JobInfo.builder("tf")
                .tasks("ps", 2, Map.of("cpu", "3"))
                .tasks("worker", 4, Map.of("cpu", "500m"))
                .minMember(3)
                .minTaskMember("ps", 2)
                .build();
        SessionResult fits = run(nodes(2, "4", "8Gi"), List.of(), List.of(j));
        assertThat(fits.bindingsOf(key("tf")))
                .filteredOn(b -> b.task().contains("-ps-"))
                .hasSize(2);

        // 6.5 cpu, the gang's minResources (3 + 3 + 0.5), so enqueue admits it; no node fits the second ps.
        SessionResult tooSmall = run(
                List.of(
                        io.lahar.core.scheduling.Fixtures.node("n0", "4", "8Gi"),
                        io.lahar.core.scheduling.Fixtures.node("n1", "2500m", "8Gi")),
                List.of(),
                List.of(j));
        assertThat(tooSmall.bindings()).isEmpty();
        assertThat(tooSmall.conditions().get(key("tf")).message()).contains("task ps: 0/2 nodes are available");
    }

    @Test
    void invalidWhenTooFewTasksCanEverRun() {
        JobInfo j = JobInfo.builder("j")
                .tasks("w", 2, Map.of("cpu", "1"))
                .task(TaskInfo.builder("j-w-9")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Failed)
                        .build())
                .minMember(3)
                .build();
        SessionResult r = run(
                io.lahar.core.scheduling.Fixtures.defaultTiers("allocate"),
                nodes(2, "4", "8Gi"),
                List.of(),
                List.of(j));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("j")).reason()).isEqualTo("NotEnoughTasks");
        assertThat(r.conditions().get(key("j")).message())
                .isEqualTo(
                        "3/3 tasks in gang unschedulable: not enough valid tasks for gang-scheduling, valid: 2, min: 3");
    }

    @Test
    void roleMinimumsAboveTheJobMinimumAreIgnoredAsVolcanoDoes() {
        // minMember 1 but the role's minTaskMember is its 4 replicas (Volcano's default): the sum of
        // role minimums exceeds minMember, so only minMember counts and 2 of the 4 run.
        JobInfo j = JobInfo.builder("j")
                .tasks("w", 4, Map.of("cpu", "1"))
                .minMember(1)
                .minTaskMember("w", 4)
                .build();
        SessionResult r = run(nodes(1, "2", "8Gi"), List.of(), List.of(j));
        assertThat(boundIn(r, key("j"))).isEqualTo(2);
    }
}
