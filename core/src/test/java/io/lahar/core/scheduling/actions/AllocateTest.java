package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocateTest {

    @Test
    void pendingGroupsWaitForEnqueue() {
        // Allocate alone after enqueue rejected the group: nothing placed, phase stays Pending.
        JobInfo j = JobInfo.builder("j").tasks("w", 2, Map.of("cpu", "1")).build();
        SessionResult r = run(Fixtures.defaultTiers("enqueue, allocate"), nodes(1, "1", "8Gi"), List.of(), List.of(j));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.phaseChanges()).isEmpty();
    }

    @Test
    void withoutAnEnqueueActionAPendingGroupAllocateCannotPlaceIsMovedToInqueue() {
        // Volcano's allocate sets the phase so that a missing enqueue gate blocks nothing.
        JobInfo j = JobInfo.builder("j").tasks("w", 2, Map.of("cpu", "1")).build();
        SessionResult r = run(Fixtures.defaultTiers("allocate"), nodes(1, "1", "8Gi"), List.of(), List.of(j));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.phaseChanges())
                .containsExactly(new SessionResult.PhaseChange(key("j"), PodGroupPhase.Pending, PodGroupPhase.Inqueue));
    }

    @Test
    void growsARunningGangIntoFreeRoom() {
        JobInfo j = JobInfo.builder("j")
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("j-0")
                        .resreq(Map.of("cpu", "1"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .task(TaskInfo.builder("j-1").resreq(Map.of("cpu", "1")).build())
                .build();
        SessionResult r = run(nodes(1, "2", "8Gi"), List.of(), List.of(j));
        assertThat(r.bindings()).singleElement().satisfies(b -> {
            assertThat(b.task()).isEqualTo("j-1");
            assertThat(b.action()).isEqualTo("allocate");
        });
    }

    @Test
    void pipelinesOntoResourcesBeingReleased() {
        JobInfo leaving = JobInfo.builder("leaving")
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("l-0")
                        .resreq(Map.of("cpu", "2"))
                        .on("n0", TaskStatus.Releasing)
                        .build())
                .build();
        JobInfo next = JobInfo.builder("next")
                .tasks("w", 1, Map.of("cpu", "2"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(nodes(1, "2", "8Gi"), List.of(), List.of(leaving, next));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.nominations()).singleElement().satisfies(n -> {
            assertThat(n.job()).isEqualTo(key("next"));
            assertThat(n.node()).isEqualTo("n0");
        });
    }

    @Test
    void aReadyGangYieldsToGangsNotYetReady() {
        // Two elastic jobs, minMember 1: once a has its gang it goes back behind b (gang orders unready
        // jobs first), so b gets its gang before a grows; with no drf, a then wins the ties by age.
        var conf = Fixtures.conf("""
                actions: "allocate"
                tiers:
                - plugins: [{name: gang}]
                - plugins: [{name: predicates}]
                """);
        JobInfo a = JobInfo.builder("a")
                .tasks("w", 4, Map.of("cpu", "1"))
                .minMember(1)
                .creationIndex(1)
                .build();
        JobInfo b = JobInfo.builder("b")
                .tasks("w", 4, Map.of("cpu", "1"))
                .minMember(1)
                .creationIndex(2)
                .build();
        SessionResult r = run(conf, nodes(1, "4", "8Gi"), List.of(), List.of(a, b));
        assertThat(boundIn(r, key("a"))).isEqualTo(3);
        assertThat(boundIn(r, key("b"))).isEqualTo(1);
    }

    /** A gang of both kinds: w-0 and two best-effort tasks, all needed. */
    private static JobInfo mixedGang() {
        return JobInfo.builder("mix")
                .task(TaskInfo.builder("w-0")
                        .role("w")
                        .resreq(Map.of("cpu", "1"))
                        .build())
                .task(TaskInfo.builder("be-0").role("be").build())
                .task(TaskInfo.builder("be-1").role("be").build())
                .minMember(3)
                .phase(PodGroupPhase.Inqueue)
                .build();
    }

    /**
     * Volcano's allocate skips best-effort tasks ("Skip BestEffort task in 'allocate' action"); the
     * gang is ready with them pending, so allocate commits w-0 and backfill gives them their slots.
     */
    @Test
    void leavesBestEffortTasksToBackfill() {
        SessionResult r = run(nodes(1, "1", "8Gi"), List.of(), List.of(mixedGang()));
        assertThat(r.bindingsOf(key("mix")))
                .extracting(SessionResult.Binding::task, SessionResult.Binding::action)
                .containsExactlyInAnyOrder(
                        tuple("w-0", "allocate"), tuple("be-0", "backfill"), tuple("be-1", "backfill"));
    }

    /** Without backfill, as in Volcano, the best-effort tasks stay pending and the rest of the gang is bound. */
    @Test
    void placesNoBestEffortTaskItself() {
        SessionResult r =
                run(Fixtures.defaultTiers("enqueue, allocate"), nodes(1, "1", "8Gi"), List.of(), List.of(mixedGang()));
        assertThat(r.bindings()).extracting(SessionResult.Binding::task).containsExactly("w-0");
        assertThat(r.nominations()).isEmpty();
        assertThat(r.conditions().get(key("mix")).type()).isEqualTo(SessionResult.PodGroupCondition.SCHEDULED);
    }

    /** A job whose pending tasks are all best-effort is not allocate's: nothing of it is placed there. */
    @Test
    void takesNoJobOfBestEffortTasksOnly() {
        JobInfo be = JobInfo.builder("be")
                .tasks("w", 2, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        JobInfo w = JobInfo.builder("w")
                .tasks("w", 1, Map.of("cpu", "1"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r =
                run(Fixtures.defaultTiers("enqueue, allocate"), nodes(1, "2", "8Gi"), List.of(), List.of(be, w));
        assertThat(r.bindings()).extracting(SessionResult.Binding::job).containsExactly(key("w"));
        assertThat(r.nominations()).isEmpty();
    }

    /**
     * Volcano's NeedContinueAllocating counts a role's pending best-effort tasks towards its
     * minTaskMember (getJobAllocatedRoles): w-big finds no node, yet role w has its minimum in
     * w-be, so x-0 is still tried and the gang commits.
     */
    @Test
    void goesOnPastAFailedRoleWhoseBestEffortTasksMakeItsMinimum() {
        JobInfo j = JobInfo.builder("j")
                .task(TaskInfo.builder("w-big")
                        .role("w")
                        .priority(10)
                        .resreq(Map.of("cpu", "100"))
                        .build())
                .task(TaskInfo.builder("w-be").role("w").priority(5).build())
                .task(TaskInfo.builder("x-0")
                        .role("x")
                        .resreq(Map.of("cpu", "1"))
                        .build())
                .minMember(2)
                .minTaskMember("w", 1)
                .minTaskMember("x", 1)
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(nodes(1, "4", "8Gi"), List.of(), List.of(j));
        assertThat(r.bindings())
                .extracting(SessionResult.Binding::task, SessionResult.Binding::action)
                .containsExactlyInAnyOrder(tuple("x-0", "allocate"), tuple("w-be", "backfill"));
    }
}
