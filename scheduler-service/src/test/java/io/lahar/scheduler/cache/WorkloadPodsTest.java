package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.scheduler.mapping.MappingException;
import io.lahar.schema.Bind;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Pods and pod groups of other workloads (a Spark-style driver and executors in another operator's
 * PodGroup, a bare pod's one-pod group) are placed with the gang and queue rules of Lahar's Jobs:
 * all or nothing up to minMember, never from a queue that does not exist, and their bindings are
 * confirmed by the pods' own records.
 */
class WorkloadPodsTest {

    private final SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
    private final List<SchedulerDecision> written = new ArrayList<>();

    private static final String SPARK = WorkloadKeys.groupKey("ns", "spark-pi");

    private void group(String name, String queue, int minMember) {
        PodGroup g = Records.podGroup("ns", WorkloadKeys.groupJob(name), queue, minMember, "Pending", 0);
        g.setName(name);
        g.setOrigin(WorkloadKeys.ORIGIN_POD_GROUP);
        cache.onPodGroup(WorkloadKeys.groupKey("ns", name), Records.roundTrip(g));
    }

    private static WorkloadPod pod(String name, String group, String cpu, String phase, String node) {
        CreatePod spec = CreatePod.newBuilder()
                .setPod(name)
                .setTask("")
                .setIndex(0)
                .setJobVersion(0)
                .setPodGroup(group)
                .setSchedulerName("volcano")
                .setTemplate("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"containers\":[]}}")
                .setRequests(Map.of("cpu", cpu, "memory", "1Gi"))
                .build();
        return Records.roundTrip(WorkloadPod.newBuilder()
                .setNamespace("ns")
                .setName(name)
                .setSpec(spec)
                .setPhase(phase)
                .setNode(node)
                .setTime(Records.T0)
                .build());
    }

    /** A node of {@code nodeCpus}, the default queue, and the driver and two executors (1 cpu each) of a group in {@code queue}. */
    private void spark(String nodeCpus, String queue) {
        cache.onNode("n1", node("n1", nodeCpus, "8Gi", Map.of(), List.of()));
        cache.onQueue("default", Records.queue("default", 1));
        group("spark-pi", queue, 3);
        sparkPods("1");
    }

    private void sparkPods(String cpu) {
        cache.onWorkloadPod("ns/spark-pi-driver", pod("spark-pi-driver", "spark-pi", cpu, "Pending", null));
        for (int i = 1; i <= 2; i++) {
            String name = "spark-pi-exec-" + i;
            cache.onWorkloadPod("ns/" + name, pod(name, "spark-pi", cpu, "Pending", null));
        }
    }

    private SessionDecisions.Outcome session() {
        Snapshot s = cache.snapshot();
        SessionResult r = Scheduler.withDefaults().schedule(s);
        SessionDecisions.Outcome o = SessionDecisions.apply(cache, s, r, 1, "s", Records.T0);
        written.addAll(o.decisions());
        return o;
    }

    private static List<String> bound(SessionDecisions.Outcome o) {
        return o.decisions().stream()
                .filter(d -> d.getDecision() instanceof Bind)
                .map(d -> ((Bind) d.getDecision()).getPod())
                .toList();
    }

    private static PodGroupStatus status(SessionDecisions.Outcome o, String key) {
        return o.decisions().stream()
                .filter(d -> (d.getNamespace() + "/" + d.getJob()).equals(key))
                .filter(d -> d.getDecision() instanceof PodGroupStatus)
                .map(d -> (PodGroupStatus) d.getDecision())
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    @Test
    void aDriverAndTwoExecutorsAreBoundTogetherUnderTheGroupsKeyAndTheirRecordsConfirmTheBindings() {
        spark("4", "default");

        SessionDecisions.Outcome first = session();

        assertThat(bound(first)).containsExactlyInAnyOrder("spark-pi-driver", "spark-pi-exec-1", "spark-pi-exec-2");
        assertThat(first.decisions()).allSatisfy(d -> {
            assertThat(d.getJob()).isEqualTo("podgroup:spark-pi");
            assertThat(d.getPodGroup()).isEqualTo("spark-pi");
            assertThat(d.getPodGroupVersion()).isZero();
        });
        assertThat(status(first, SPARK).getPhase()).isEqualTo("Running");
        assertThat(cache.unconfirmedBindings()).isEqualTo(3);

        // A record from before the binding does not undo it; the pod's record on its node confirms it.
        cache.onWorkloadPod("ns/spark-pi-driver", pod("spark-pi-driver", "spark-pi", "1", "Pending", null));
        assertThat(cache.unconfirmedBindings()).isEqualTo(3);
        cache.onWorkloadPod("ns/spark-pi-driver", pod("spark-pi-driver", "spark-pi", "1", "Running", "n1"));
        assertThat(cache.unconfirmedBindings()).isEqualTo(2);

        // The gang's pods hold the node: a bare pod's one-pod group that needs 2 cpus must wait.
        group("podgroup-0a1b", "default", 1);
        cache.onWorkloadPod("ns/bare", pod("bare", "podgroup-0a1b", "2", "Pending", null));
        assertThat(bound(session())).isEmpty();

        // The executors are deleted: their tombstones free the node, and the bare pod is placed.
        cache.onWorkloadPod("ns/spark-pi-exec-1", null);
        cache.onWorkloadPod("ns/spark-pi-exec-2", null);
        assertThat(cache.unconfirmedBindings()).isZero();
        assertThat(bound(session())).containsExactly("bare");
    }

    @Test
    void aGangThatDoesNotFitWholeGetsNoPodBound() {
        spark("2", "default");

        SessionDecisions.Outcome o = session();

        assertThat(bound(o)).as("2 of 3 would fit: none is bound").isEmpty();
        assertThat(status(o, SPARK).getPhase()).isNotEqualTo("Running");
        assertThat(status(o, SPARK).getConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getType()).isEqualTo("Unschedulable"));
    }

    @Test
    void aGroupWhoseQueueDoesNotExistIsNotScheduledAndSaysWhyUntilTheQueueIsCreated() {
        spark("8", "nope");

        SessionDecisions.Outcome o = session();

        assertThat(bound(o)).isEmpty();
        PodGroupStatus pending = status(o, SPARK);
        assertThat(pending.getPhase()).isEqualTo("Pending");
        assertThat(pending.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Unschedulable");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage() + " " + c.getReason()).contains("queue \"nope\" not found");
        });

        cache.onQueue("nope", Records.queue("nope", 1));
        assertThat(bound(session())).hasSize(3);
    }

    @Test
    void aPodRecordThatNamesAnotherPodIsRefusedBeforeAnythingChanges() {
        WorkloadPod wrong = pod("a", "g", "1", "Pending", null);
        wrong.getSpec().setPod("b");

        assertThatThrownBy(() -> cache.onWorkloadPod("ns/a", wrong))
                .isInstanceOf(MappingException.class)
                .hasMessageContaining("spec.pod");
        assertThat(cache.snapshot().jobs()).isEmpty();
    }
}
