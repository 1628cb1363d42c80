package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OvercommitTest {

    @Test
    void inqueueGroupsCountAgainstIdle() {
        // An already admitted 4-cpu gang that holds nothing yet leaves 4.8 - 4 = 0.8 cpu for newcomers.
        JobInfo admitted = JobInfo.builder("admitted")
                .tasks("w", 4, Map.of("cpu", "1"))
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(1)
                .build();
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(2, "2", "8Gi"),
                List.of(),
                List.of(admitted, gang("next", "default", 1, 1, "1")));
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Pending);
    }

    /** Volcano's overcommit adds an Inqueue group's whole minResources, although its bound pods count in used too. */
    @Test
    void anInqueueGroupReservesItsWholeMinResourcesEvenWithPodsBound() {
        // 8 cpu * 1.2 = 9.6; used 2 (two bound pods of the admitted gang); promised 4 more: 3.6 left.
        JobInfo admitted = JobInfo.builder("admitted")
                .minMember(4)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(1)
                .task(TaskInfo.builder("admitted-w-0")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .on("n0", TaskStatus.Bound)
                        .build())
                .task(TaskInfo.builder("admitted-w-1")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .on("n1", TaskStatus.Bound)
                        .build())
                .task(TaskInfo.builder("admitted-w-2")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .build())
                .task(TaskInfo.builder("admitted-w-3")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .build())
                .build();
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(2, "4", "8Gi"),
                List.of(),
                List.of(admitted, gang("next", "default", 4, 4, "1")));
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Pending);
    }

    /** A Running group below its minMember (a finished driver, say) reserves nothing beyond what it holds. */
    @Test
    void aRunningGroupBelowItsMinMemberReservesNothingMore() {
        // minResources 2 cpu (its first two tasks); 8 * 1.2 = 9.6, used 1.
        JobInfo running = JobInfo.builder("running")
                .minMember(4)
                .phase(PodGroupPhase.Running)
                .creationIndex(1)
                .task(TaskInfo.builder("running-w-0")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .task(TaskInfo.builder("running-w-1")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Succeeded)
                        .build())
                .build();
        // Overcommit alone: proportion's gate (the cluster's 8 cpu) would stop this 8-cpu newcomer by itself.
        SessionResult r = run(
                Fixtures.conf("""
                actions: "enqueue"
                tiers:
                - plugins: [{name: gang}, {name: overcommit}]
                """),
                nodes(2, "4", "8Gi"),
                List.of(),
                List.of(running, gang("next", "default", 8, 8, "1")));
        // 8 cpu fit in 9.6 - 1 = 8.6, and would not if the running gang still reserved 2 - 1 = 1.
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }

    /** A gang whose pods all succeeded, its pod group still Running, holds and reserves nothing. */
    @Test
    void aFinishedGangWhosePodGroupStillRunsReservesNothing() {
        JobInfo.Builder b = JobInfo.builder("done")
                .minMember(2)
                .phase(PodGroupPhase.Running)
                .creationIndex(1);
        for (int i = 0; i < 2; i++) {
            b.task(TaskInfo.builder("done-w-" + i)
                    .role("w")
                    .resreq(Map.of("cpu", "1"))
                    .status(TaskStatus.Succeeded)
                    .build());
        }
        SessionResult r = run(
                Fixtures.conf("""
                actions: "enqueue"
                tiers:
                - plugins: [{name: gang}, {name: overcommit}]
                """),
                nodes(2, "4", "8Gi"),
                List.of(),
                List.of(b.build(), gang("next", "default", 9, 9, "1")));
        // 9 cpu fit in 9.6; they would not in 9.6 - 2 if the finished gang still reserved its minResources.
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void aGroupWithoutMinResourcesIsAlwaysAdmitted() {
        JobInfo free = JobInfo.builder("free").tasks("w", 1, Map.of()).build();
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(1, "1", "1Gi"),
                List.of(),
                List.of(gang("big", "default", 1, 1, "1"), free));
        assertThat(r.phaseOf(key("free"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void rejectsAFactorBelowOne() {
        assertThatThrownBy(() -> new Overcommit(Arguments.of(Overcommit.FACTOR, 0.5)))
                .hasMessageContaining("at least 1.0");
    }
}
