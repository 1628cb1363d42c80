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

    /**
     * Two partitions of two workers (a task's partitionPolicy); worker-0 and worker-2 already run
     * on the one node, which has room for one more.
     */
    private static JobInfo partitioned(int minSubGroups) {
        JobInfo.Builder b = JobInfo.builder("llm")
                .minMember(2)
                .phase(io.lahar.core.api.PodGroupPhase.Running)
                .subGroupPolicy(new io.lahar.core.scheduling.api.SubGroupPolicy(
                        "worker",
                        2,
                        minSubGroups,
                        Map.of("volcano.sh/task-spec", "worker"),
                        List.of("volcano.sh/task-partition-id")));
        for (int i = 0; i < 4; i++) {
            TaskInfo.Builder t = TaskInfo.builder("llm-worker-" + i)
                    .role("worker")
                    .resreq(Map.of("cpu", "1"))
                    .labels(Map.of("volcano.sh/task-spec", "worker", "volcano.sh/task-partition-id", "" + i / 2));
            if (i % 2 == 0) {
                t.on("n0", TaskStatus.Running);
            }
            b.task(t.build());
        }
        return b.build();
    }

    @Test
    void aPartitionCountsOnlyWhenPlacedWhole() {
        // minMember 2 already runs; one more worker fits and makes one partition whole: enough for
        // minSubGroups 1, not for 2, so that gang binds nothing until both partitions fit.
        List<io.lahar.core.scheduling.api.NodeInfo> room =
                List.of(io.lahar.core.scheduling.Fixtures.node("n0", "3", "8Gi"));
        SessionResult one = run(room, List.of(), List.of(partitioned(1)));
        assertThat(one.bindingsOf(key("llm"))).hasSize(1);

        SessionResult two = run(room, List.of(), List.of(partitioned(2)));
        assertThat(two.bindings()).isEmpty();
        assertThat(two.conditions().get(key("llm")).message())
                .contains("partitions placed whole below minSubGroups: worker 0/2");
    }

    @Test
    void invalidWhenFewerPartitionsExistThanMinSubGroups() {
        SessionResult r = run(nodes(4, "2", "8Gi"), List.of(), List.of(partitioned(3)));

        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("llm")).message()).contains("minSubGroups not reachable: worker 2/3");
    }
}
