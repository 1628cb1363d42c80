package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.QueueState;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackfillTest {

    private static final SchedulerConf BACKFILL = Fixtures.defaultTiers("backfill");

    private static List<NodeInfo> podSlots(int pods) {
        return List.of(NodeInfo.builder("tiny")
                .allocatable(Map.of("cpu", "1", "memory", "1Gi", "pods", String.valueOf(pods)))
                .build());
    }

    private static TaskInfo bestEffort(String name, int priority) {
        return TaskInfo.builder(name).role("w").priority(priority).build();
    }

    @Test
    void placesBestEffortTasksWhateverTheQueueShare() {
        // Queue a is capped at 1 cpu and already full; its best-effort job still gets pod slots.
        var queues = List.of(QueueInfo.of("a", 1).withCapability(Map.of("cpu", "1")));
        JobInfo full = Fixtures.running("full", "a", 0, "1", "n0");
        JobInfo be = JobInfo.builder("be")
                .queue("a")
                .tasks("w", 3, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(BACKFILL, nodes(2, "1", "4Gi"), queues, List.of(full, be));
        assertThat(r.bindingsOf(key("be")))
                .hasSize(3)
                .allSatisfy(b -> assertThat(b.action()).isEqualTo("backfill"));
    }

    /**
     * The node's pod limit holds; a gang of best-effort tasks only is ready from the start (its
     * pending best-effort tasks count as ready, Volcano's IsReady), so each task placed is bound.
     */
    @Test
    void respectsPodLimitsAndBindsABestEffortGangTaskByTask() {
        JobInfo be = JobInfo.builder("be")
                .tasks("w", 3, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(BACKFILL, podSlots(2), List.of(), List.of(be));
        assertThat(r.bindingsOf(key("be"))).hasSize(2);
        assertThat(r.nominations()).isEmpty();
        assertThat(r.conditions().get(key("be")).type()).isEqualTo(SessionResult.PodGroupCondition.SCHEDULED);
    }

    /** Volcano's pickUpPendingTasks: queue by queue in queue order, then the queue's jobs; not jobs across queues. */
    @Test
    void takesQueuesInQueueOrderBeforeTheirJobs() {
        var queues = List.of(QueueInfo.of("first", 1).withPriority(1), QueueInfo.of("second", 1));
        JobInfo plain = JobInfo.builder("plain")
                .queue("first")
                .priority(1)
                .task(bestEffort("plain-0", 1))
                .phase(PodGroupPhase.Inqueue)
                .build();
        JobInfo urgent = JobInfo.builder("urgent")
                .queue("second")
                .priority(100)
                .task(bestEffort("urgent-0", 1))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(BACKFILL, podSlots(1), queues, List.of(urgent, plain));
        assertThat(r.bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.job()).isEqualTo(key("plain")));
        assertThat(r.conditions().get(key("urgent")).message()).contains("node(s) pod number exceeded");
    }

    /**
     * Volcano's TestPickUpPendingTasks: pipelined best-effort tasks are taken off their node and
     * placed again with the pending ones, in job order and then task order; other pipelined tasks stay.
     */
    @Test
    void placesPipelinedBestEffortTasksAgainInTaskOrder() {
        List<JobInfo> jobs = List.of(pickUpJob("pg1", 1), pickUpJob("pg2", 2));
        SessionResult r = run(BACKFILL, nodes(1, "8", "16Gi"), List.of(QueueInfo.of("q1", 1)), jobs);
        assertThat(r.bindings())
                .extracting(SessionResult.Binding::task)
                .containsExactly(
                        "pg2-besteffort-task-4",
                        "pg2-besteffort-task-3",
                        "pg2-besteffort-task-2",
                        "pg2-besteffort-task-1",
                        "pg1-besteffort-task-4",
                        "pg1-besteffort-task-3",
                        "pg1-besteffort-task-2",
                        "pg1-besteffort-task-1");
        assertThat(r.nominations()).isEmpty();
    }

    private static JobInfo pickUpJob(String name, int priority) {
        JobInfo.Builder b = JobInfo.builder(name).queue("q1").priority(priority).minMember(1);
        for (int p = 1; p <= 4; p++) {
            TaskStatus s = p % 2 == 0 ? TaskStatus.Pipelined : TaskStatus.Pending;
            String node = s == TaskStatus.Pipelined ? "n0" : null;
            b.task(TaskInfo.builder(name + "-besteffort-task-" + p)
                    .priority(p)
                    .on(node, s)
                    .build());
            b.task(TaskInfo.builder(name + "-unbesteffort-task-" + p)
                    .priority(p)
                    .resreq(Map.of("cpu", "500m"))
                    .on(node, s)
                    .build());
        }
        return b.phase(PodGroupPhase.Inqueue).build();
    }

    /**
     * As ssn.Allocate: a gang not yet ready keeps the slots its best-effort tasks were given (they
     * are not bound), so a later job finds none.
     */
    @Test
    void aGangNotYetReadyKeepsTheSlotsItWasGiven() {
        JobInfo gang = JobInfo.builder("gang")
                .priority(10)
                .task(TaskInfo.builder("gang-big")
                        .role("big")
                        .resreq(Map.of("cpu", "100"))
                        .build())
                .task(bestEffort("gang-be-0", 1))
                .task(bestEffort("gang-be-1", 1))
                .minMember(3)
                .phase(PodGroupPhase.Inqueue)
                .build();
        JobInfo other = JobInfo.builder("other")
                .priority(1)
                .task(bestEffort("other-0", 1))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(BACKFILL, podSlots(2), List.of(), List.of(gang, other));
        assertThat(r.bindings()).isEmpty();
        assertThat(r.nominations())
                .extracting(SessionResult.Nomination::task)
                .containsExactly("gang-be-0", "gang-be-1");
        assertThat(r.conditions().get(key("other")).message()).contains("node(s) pod number exceeded");
    }

    /** Volcano's backfill skips a Pending pod group; only allocate without enqueue moves it to Inqueue first. */
    @Test
    void leavesPendingGroupsAloneWhenNothingAdmittedThem() {
        JobInfo pending =
                JobInfo.builder("pending").task(bestEffort("pending-0", 1)).build();
        JobInfo admitted = JobInfo.builder("admitted")
                .task(bestEffort("admitted-0", 1))
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(BACKFILL, nodes(1, "1", "1Gi"), List.of(), List.of(pending, admitted));
        assertThat(r.bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.job()).isEqualTo(key("admitted")));
    }

    /** Volcano's backfill asks only that the queue exists: a closing queue's group still gets its pod slots. */
    @Test
    void placesTheBestEffortTasksOfAClosingQueuesGroup() {
        var queues = List.of(QueueInfo.of("shut", 1).withState(QueueState.Closed));
        JobInfo be = JobInfo.builder("be")
                .queue("shut")
                .tasks("w", 2, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        SessionResult r = run(nodes(1, "1", "1Gi"), queues, List.of(be));
        assertThat(r.bindingsOf(key("be")))
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.action()).isEqualTo("backfill"));
    }

    /** Volcano's backfill reads predicateErrorCacheEnable (its cache lives for one task, so it changes nothing). */
    @Test
    void readsThePredicateErrorCacheSwitch() {
        SchedulerConf c = SchedulerConf.parse(SchedulerConf.DEFAULT_YAML
                + "configurations:\n- name: backfill\n  arguments: {predicateErrorCacheEnable: false}\n");
        assertThat(c.actionArguments(Backfill.NAME).getBool(Allocate.PREDICATE_ERROR_CACHE, true))
                .isFalse();
        JobInfo be = JobInfo.builder("be")
                .tasks("w", 2, Map.of())
                .phase(PodGroupPhase.Inqueue)
                .build();
        assertThat(run(c, nodes(1, "1", "1Gi"), List.of(), List.of(be)).bindingsOf(key("be")))
                .hasSize(2);
    }
}
