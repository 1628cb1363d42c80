package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

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
}
