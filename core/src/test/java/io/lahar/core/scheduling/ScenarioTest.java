package io.lahar.core.scheduling;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.core.scheduling.framework.SessionResult.PodGroupCondition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenarios, under Volcano's default configuration unless said otherwise. */
class ScenarioTest {

    @Test
    void twoFourPodGangsOnSixSlotsExactlyOneRunsTheOtherWaitsWithAReason() {
        // 3 nodes x 2 cpu = 6 one-cpu slots; two gangs of 4 one-cpu pods each.
        JobInfo a = JobInfo.builder("a")
                .tasks("worker", 4, java.util.Map.of("cpu", "1", "memory", "1Gi"))
                .creationIndex(1)
                .build();
        JobInfo b = JobInfo.builder("b")
                .tasks("worker", 4, java.util.Map.of("cpu", "1", "memory", "1Gi"))
                .creationIndex(2)
                .build();
        SessionResult r = run(nodes(3, "2", "8Gi"), List.of(), List.of(a, b));

        assertThat(boundIn(r, key("a")) + boundIn(r, key("b"))).isEqualTo(4);
        assertThat(boundIn(r, key("a"))).isEqualTo(4); // created first
        assertThat(r.nominations()).isEmpty();
        assertThat(r.phaseOf(key("a"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Running);
        assertThat(r.phaseOf(key("b"), PodGroupPhase.Pending)).isIn(PodGroupPhase.Pending, PodGroupPhase.Inqueue);
        PodGroupCondition c = r.conditions().get(key("b"));
        assertThat(c.type()).isEqualTo(PodGroupCondition.UNSCHEDULABLE);
        assertThat(c.message()).startsWith("4/4 tasks in gang unschedulable: ");
        assertThat(r.conditions().get(key("a")).type()).isEqualTo(PodGroupCondition.SCHEDULED);
    }

    @Test
    void waitingGangNamesTheMissingResource() {
        // Enqueue admits both (overcommit 8 x 1.2 >= 4 + 3; proportion: the queue's 8 >= 4 + 3): b is
        // stopped by the nodes, not by the gates. a spreads 1+1+1+1 (nodeorder prefers emptier nodes),
        // leaving no node with 1.5 cpu.
        JobInfo a = JobInfo.builder("a")
                .tasks("worker", 4, java.util.Map.of("cpu", "1", "memory", "1Gi"))
                .creationIndex(1)
                .build();
        JobInfo b = JobInfo.builder("b")
                .tasks("worker", 2, java.util.Map.of("cpu", "1500m", "memory", "1Gi"))
                .creationIndex(2)
                .build();
        SessionResult r = run(nodes(4, "2", "8Gi"), List.of(), List.of(a, b));
        assertThat(boundIn(r, key("a"))).isEqualTo(4);
        assertThat(r.conditions().get(key("b")).message())
                .isEqualTo("2/2 tasks in gang unschedulable: only 0 of minMember 2 tasks could be placed; task worker: "
                        + "0/4 nodes are available: 4 Insufficient cpu (need 1500m, largest free 1 on n0)");
    }

    @Test
    void queuesWeightedThreeToOneSplitAFullClusterThreeToOne() {
        List<QueueInfo> queues = List.of(QueueInfo.of("a", 3), QueueInfo.of("b", 1));
        JobInfo ja = gang("ja", "a", 8, 1, "1");
        JobInfo jb = gang("jb", "b", 8, 1, "1");
        SessionResult r = run(nodes(8, "1", "4Gi"), queues, List.of(ja, jb));
        assertThat(boundIn(r, key("ja"))).isEqualTo(6);
        assertThat(boundIn(r, key("jb"))).isEqualTo(2);
        SessionResult.QueueStatus qa = r.queues().stream()
                .filter(q -> q.name().equals("a"))
                .findFirst()
                .orElseThrow();
        assertThat(qa.deserved().milliCpu()).isEqualTo(6000);
    }

    @Test
    void aClosedQueueTakesNoNewWork() {
        List<QueueInfo> queues = List.of(QueueInfo.of("shut", 1).withState(io.lahar.core.api.QueueState.Closed));
        SessionResult r = run(nodes(2, "4", "8Gi"), queues, List.of(gang("j", "shut", 2, 2, "1")));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.phaseChanges()).isEmpty();
        assertThat(r.conditions().get(key("j")).message())
                .contains("queue \"shut\" is Closing and takes no new work"); // closed, with a pod group still in it
    }
}
