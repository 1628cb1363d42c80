package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.VolcanoTables.bound;
import static io.lahar.core.scheduling.VolcanoTables.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.VolcanoTables;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Extension;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proportion after Volcano's pkg/scheduler/plugins/proportion/proportion_test.go:
 * {@code TestEnqueueAndAllocable} (deserved per dimension, capability at enqueue, a closed queue)
 * and {@code TestAllocate} (queues in order of their priority).
 */
class ProportionVolcanoTest {

    static final List<NodeInfo> NODES = List.of(node("n1", "2", "2G"), node("n2", "2", "2G"));

    /** Volcano's util.BuildPod in a pod group of one (minMember 1, minResources the pod's request). */
    static JobInfo pg(String pg, String queue, PodGroupPhase phase, String pod, String cpu, String mem, String onNode) {
        TaskInfo.Builder t = TaskInfo.builder(pod).resreq(Map.of("cpu", cpu, "memory", mem));
        if (onNode != null) t.on(onNode, TaskStatus.Running);
        return JobInfo.builder(pg)
                .namespace("ns1")
                .queue(queue)
                .minMember(1)
                .phase(phase)
                .minResources(Resource.parse(Map.of("cpu", cpu, "memory", mem)))
                .task(t.build())
                .build();
    }

    static final JobInfo PG1 = pg("pg1", "q1", PodGroupPhase.Running, "pod1", "1", "2G", "n1");
    static final JobInfo PG2 = pg("pg2", "q2", PodGroupPhase.Running, "pod2", "2", "1G", "n2");
    static final List<QueueInfo> QUEUES = List.of(
            QueueInfo.of("q1", 1).withCapability(Map.of("cpu", "2", "memory", "2G")),
            QueueInfo.of("q2", 1).withCapability(Map.of("cpu", "3", "memory", "3G")));

    static SchedulerConf tier(Extension... on) {
        return VolcanoTables.conf("enqueue, allocate", Map.of(Proportion.NAME, Set.of(on)), "");
    }

    static final SchedulerConf ALL_ENABLE = tier(Extension.ALLOCATABLE, Extension.OVERUSED, Extension.JOB_ENQUEUED);
    static final SchedulerConf ENQUEUEABLE = tier(Extension.JOB_ENQUEUED);
    static final SchedulerConf ALLOCATABLE = tier(Extension.ALLOCATABLE);

    record Case(
            String name,
            SchedulerConf conf,
            List<QueueInfo> queues,
            List<JobInfo> jobs,
            Map<String, String> expectBind) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<JobInfo> with(JobInfo... pending) {
        List<JobInfo> jobs = new ArrayList<>(List.of(PG1, PG2));
        jobs.addAll(List.of(pending));
        return jobs;
    }

    static Stream<Case> testEnqueueAndAllocable() {
        JobInfo pg5 = pg("pg5", "q1", PodGroupPhase.Pending, "pod5", "1", "1G", null);
        return Stream.of(
                new Case(
                        "case0: memory exceed derserved, job only request cpu can be enqueued and allocated",
                        ALL_ENABLE,
                        QUEUES,
                        with(pg("pg3", "q1", PodGroupPhase.Pending, "pod3", "1", "0G", null)),
                        Map.of("ns1/pod3", "n1")),
                new Case(
                        "case1: cpu exceed derserved, job only request memory can be enqueued and allocated",
                        ALL_ENABLE,
                        QUEUES,
                        with(pg("pg4", "q2", PodGroupPhase.Pending, "pod4", "0", "1G", null)),
                        Map.of("ns1/pod4", "n2")),
                new Case("case2: exceed capacity, can not enqueue", ENQUEUEABLE, QUEUES, with(pg5), Map.of()),
                new Case("case3: exceed deserved, can not allocate", ALLOCATABLE, QUEUES, with(pg5), Map.of()),
                new Case(
                        "case4: queue with  non-open state, can not enqueue",
                        ENQUEUEABLE,
                        List.of(QueueInfo.of("q3", 1)
                                .withCapability(Map.of("cpu", "3", "memory", "3G"))
                                .withState(QueueState.Closed)),
                        List.of(pg("pg6", "q3", PodGroupPhase.Pending, "pod6", "1", "1G", null)),
                        Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("testEnqueueAndAllocable")
    void asVolcanosTestEnqueueAndAllocable(Case c) {
        var r = new Scheduler(c.conf()).schedule(new Snapshot(NODES, c.queues(), c.jobs()));
        assertThat(bound(r)).isEqualTo(c.expectBind());
    }

    /** TestAllocate case0: "Pods are assigned according to the order of Queue Priority in which PGs are placed". */
    @Test
    void podsAreAssignedInTheOrderOfTheirQueuesPriority() {
        List<NodeInfo> nodes = List.of(node("n1", "2", "4Gi"), node("n2", "2", "4Gi"));
        Map<String, String> capability = Map.of("cpu", "2", "memory", "4Gi");
        List<QueueInfo> queues = List.of(
                QueueInfo.of("q1", 1).withPriority(5).withCapability(capability),
                QueueInfo.of("q2", 1).withPriority(1).withCapability(capability),
                QueueInfo.of("q3", 1).withPriority(10).withCapability(capability));
        List<JobInfo> jobs = List.of(
                pg("pg1", "q1", PodGroupPhase.Running, "p1", "2", "4Gi", "n1"),
                pg("pg2", "q2", PodGroupPhase.Inqueue, "p2", "2", "4Gi", null),
                pg("pg3", "q3", PodGroupPhase.Inqueue, "p3", "2", "4Gi", null));
        SchedulerConf conf =
                VolcanoTables.conf("allocate, reclaim", Map.of(Proportion.NAME, Set.of(Extension.QUEUE_ORDER)), "");
        var r = new Scheduler(conf).schedule(new Snapshot(nodes, queues, jobs));
        assertThat(bound(r)).isEqualTo(Map.of("ns1/p3", "n2"));
    }
}
