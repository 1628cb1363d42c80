package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProportionTest {

    private static Map<String, Long> deservedCpu(SessionResult r) {
        return r.queues().stream()
                .filter(q -> q.deserved() != null)
                .collect(Collectors.toMap(
                        SessionResult.QueueStatus::name, q -> q.deserved().milliCpu()));
    }

    @Test
    void whatAQueueDoesNotNeedGoesToTheOthers() {
        // Weights 1:1 but a wants only 2 of 8: b deserves the other 6.
        var queues = List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1));
        SessionResult r =
                run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 2, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 2000L).containsEntry("b", 6000L);
        assertThat(boundIn(r, key("jb"))).isEqualTo(6);
    }

    @Test
    void capabilityCapsTheDeservedShare() {
        var queues = List.of(QueueInfo.of("a", 3).withCapability(Map.of("cpu", "2")), QueueInfo.of("b", 1));
        SessionResult r =
                run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 8, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 2000L).containsEntry("b", 6000L);
        assertThat(boundIn(r, key("ja"))).isEqualTo(2);
        assertThat(boundIn(r, key("jb"))).isEqualTo(6);
    }

    /**
     * As Volcano's water-filling: a's guarantee of 6 leaves b a real capability of 2, and a deserves
     * at least its guarantee (the shares may then add up to more than the cluster, as in Volcano).
     */
    @Test
    void guaranteeComesBeforeWeight() {
        var queues = List.of(QueueInfo.of("a", 1).withGuarantee(Map.of("cpu", "6")), QueueInfo.of("b", 1));
        SessionResult r =
                run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 8, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 6000L).containsEntry("b", 2000L);
        assertThat(boundIn(r, key("jb"))).isEqualTo(2);
    }

    /**
     * Proportion is flat, as Volcano's: the queues with jobs share the cluster by their own weights,
     * whatever their parents (the queue tree is the capacity plugin's, with enableHierarchy).
     */
    @Test
    void queuesShareTheClusterByWeightWhateverTheirParents() {
        var queues = List.of(
                QueueInfo.of("eng", 5).withCapability(Map.of("cpu", "1")),
                QueueInfo.of("ops", 2),
                QueueInfo.of("ml", 1).withParent("eng"),
                QueueInfo.of("web", 1).withParent("eng"));
        SessionResult r = run(
                nodes(12, "1", "4Gi"),
                queues,
                List.of(gang("m", "ml", 12, 1, "1"), gang("w", "web", 12, 1, "1"), gang("o", "ops", 12, 1, "1")));
        assertThat(deservedCpu(r))
                .containsOnlyKeys("ml", "web", "ops")
                .containsEntry("ml", 3000L)
                .containsEntry("web", 3000L)
                .containsEntry("ops", 6000L);
        assertThat(boundIn(r, key("m"))).isEqualTo(3);
        assertThat(boundIn(r, key("w"))).isEqualTo(3);
        assertThat(boundIn(r, key("o"))).isEqualTo(6);
    }

    @Test
    void queueShareOrdersQueues() {
        assertThat(Resource.parse(Map.of("cpu", "1")).lessEqual(Resource.parse(Map.of("cpu", "2"))))
                .isTrue();
        // The emptier queue goes first: with one slot left b (share 0) beats a (share 1/2) despite its name.
        var queues = List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1));
        var jobs = List.of(
                io.lahar.core.scheduling.Fixtures.running("ra", "a", 0, "1", "n0"),
                gang("ja", "a", 1, 1, "1"),
                gang("jb", "b", 1, 1, "1"));
        SessionResult r = run(nodes(2, "1", "4Gi"), queues, jobs);
        assertThat(boundIn(r, key("jb"))).isEqualTo(1);
        assertThat(boundIn(r, key("ja"))).isZero();
    }

    /**
     * Volcano's proportion gates enqueue on the queue's real capability, which is bounded by the
     * cluster even when the queue sets no capability: one queue never admits more minResources than
     * the cluster holds (the overcommit factor alone would let 1.2 times in).
     */
    @Test
    void aQueueWithoutCapabilityAdmitsNoMoreThanTheClusterHolds() {
        var queues = List.of(QueueInfo.of("solo", 1));
        // 8 cpu; overcommit would admit up to 9.6: a 5-cpu and a 4-cpu gang pass it, but not proportion.
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(2, "4", "8Gi"),
                queues,
                List.of(gang("first", "solo", 5, 5, "1"), gang("second", "solo", 4, 4, "1")));
        assertThat(r.phaseOf(key("first"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(r.phaseOf(key("second"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Pending);
        assertThat(r.conditions().get(key("second")).message())
                .contains(
                        "queue \"solo\" over its capability: cpu allocated 0 + inqueue 5 + minResources 4 > capability 8");
    }

    /** Volcano's elastic resources: what running jobs hold beyond their minResources does not block enqueue. */
    @Test
    void resourcesHeldBeyondMinResourcesDoNotCountAgainstTheQueue() {
        var queues = List.of(QueueInfo.of("solo", 1));
        // An elastic job: minMember 1 (minResources 1 cpu) but 6 pods running, 6 cpu of 8.
        JobInfo.Builder b = JobInfo.builder("elastic")
                .queue("solo")
                .minMember(1)
                .phase(PodGroupPhase.Running)
                .creationIndex(1);
        for (int i = 0; i < 6; i++) {
            b.task(TaskInfo.builder("elastic-w-" + i)
                    .role("w")
                    .resreq(Map.of("cpu", "1"))
                    .on("n" + (i % 2), TaskStatus.Running)
                    .build());
        }
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(2, "4", "8Gi"),
                queues,
                List.of(b.build(), gang("next", "solo", 3, 3, "1")));
        // allocated 6 + minResources 3 - elastic 5 = 4 <= 8 (without elastic: 9 > 8); overcommit: 9.6 - 6 = 3.6 >= 3.
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }

    /**
     * A finished gang whose pod group still says Running (its pods Succeeded and kept) holds no node:
     * as Volcano (CalculateAllocatedTaskNum), it reserves nothing at enqueue — succeeded pods made
     * it "ready" but do not hold its minResources.
     */
    @Test
    void aFinishedGangWhosePodGroupStillRunsReservesNothing() {
        var queues = List.of(QueueInfo.of("solo", 1));
        JobInfo.Builder b = JobInfo.builder("done")
                .queue("solo")
                .minMember(3)
                .phase(PodGroupPhase.Running)
                .creationIndex(1);
        for (int i = 0; i < 3; i++) {
            b.task(TaskInfo.builder("done-w-" + i)
                    .role("w")
                    .resreq(Map.of("cpu", "1"))
                    .status(TaskStatus.Succeeded)
                    .build());
        }
        // 8 cpu: allocated 0 + minResources 7 fits; with the finished gang's 3 reserved it would not.
        SessionResult r = run(
                Fixtures.defaultTiers("enqueue"),
                nodes(2, "4", "8Gi"),
                queues,
                List.of(b.build(), gang("next", "solo", 7, 7, "1")));
        assertThat(r.phaseOf(key("next"), PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
    }
}
