package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnqueueTest {

    @Test
    void overcommitAdmitsUpToTotalTimesTheFactor() {
        // 4 cpu x 1.2 = 4.8: the 4-cpu gang is admitted, the next 1-cpu one (4 + 1 > 4.8) waits.
        var conf = Fixtures.defaultTiers("enqueue");
        SessionResult r = run(
                conf,
                nodes(2, "2", "8Gi"),
                List.of(),
                List.of(gang("big", "default", 4, 4, "1"), gang("small", "default", 1, 1, "1")));
        assertThat(r.phaseOf(key("big"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(r.phaseOf(key("small"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Pending);
        assertThat(r.conditions().get(key("small")).message())
                .contains(
                        "not enough idle resources to enqueue (overcommit factor 1.2): minResources cpu 1 > 800m available");
    }

    @Test
    void theFactorIsAnArgument() {
        var conf = Fixtures.conf("""
                actions: "enqueue"
                tiers:
                - plugins: [{name: gang}, {name: overcommit, arguments: {overcommit-factor: 2.0}}]
                """);
        SessionResult r = run(
                conf,
                nodes(2, "2", "8Gi"),
                List.of(),
                List.of(gang("big", "default", 4, 4, "1"), gang("small", "default", 4, 4, "1")));
        assertThat(r.phaseChanges()).hasSize(2);
    }

    @Test
    void queueCapabilityGatesEnqueue() {
        var queues = List.of(QueueInfo.of("research", 1).withCapability(Map.of("cpu", "2")));
        SessionResult r = run(nodes(4, "4", "8Gi"), queues, List.of(gang("j", "research", 4, 4, "1")));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.conditions().get(key("j")).message())
                .isEqualTo(
                        "4/4 tasks in gang unschedulable: "
                                + "queue \"research\" over its capability: cpu allocated 0 + inqueue 0 + minResources 4 > capability 2");
    }

    @Test
    void unknownQueueIsAReasonNotACrash() {
        SessionResult r = run(nodes(1, "4", "8Gi"), List.of(), List.of(gang("j", "nowhere", 1, 1, "1")));
        assertThat(r.conditions().get(key("j")).message()).contains("queue \"nowhere\" not found");
    }

    @Test
    void aPodGroupWhosePodsDoNotExistYetIsEnqueued() {
        // Volcano's job controller creates a job's pods only once its pod group is Inqueue.
        var job = io.lahar.core.scheduling.api.JobInfo.builder("j")
                .minMember(2)
                .minTaskMember("w", 2)
                .minResources(io.lahar.core.resource.Resource.parse(Map.of("cpu", "2")))
                .build();
        SessionResult r =
                run(Fixtures.defaultTiers("enqueue, allocate"), nodes(1, "4", "8Gi"), List.of(), List.of(job));
        assertThat(r.problems()).isEmpty();
        assertThat(r.phaseOf(key("j"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
        var tooBig = io.lahar.core.scheduling.api.JobInfo.builder("big")
                .minMember(2)
                .minTaskMember("w", 2)
                .minResources(io.lahar.core.resource.Resource.parse(Map.of("cpu", "100")))
                .build();
        SessionResult waits =
                run(Fixtures.defaultTiers("enqueue, allocate"), nodes(1, "4", "8Gi"), List.of(), List.of(tooBig));
        assertThat(waits.conditions().get(key("big")).reason()).isEqualTo("NotEnoughResources");
    }
}
