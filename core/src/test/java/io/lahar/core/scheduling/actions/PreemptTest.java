package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreemptTest {

    private static final SchedulerConf CONF = Fixtures.defaultTiers("enqueue, allocate, backfill, preempt");

    private static JobInfo low(String queue, int minMember) {
        JobInfo.Builder b = JobInfo.builder("low")
                .queue(queue)
                .priority(1)
                .phase(PodGroupPhase.Running)
                .creationIndex(1);
        for (int i = 0; i < 4; i++) {
            b.task(TaskInfo.builder("low-" + i)
                    .role("worker")
                    .priority(1)
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .on("n" + (i / 2), TaskStatus.Running)
                    .build());
        }
        return b.minMember(minMember).build();
    }

    private static JobInfo high(String queue) {
        return JobInfo.builder("high")
                .queue(queue)
                .priority(100)
                .tasks("worker", 2, Map.of("cpu", "1", "memory", "1Gi"))
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .build();
    }

    @Test
    void aHigherPriorityJobPreemptsALowerOneInItsQueue() {
        SessionResult r = run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 1), high("default")));
        assertThat(r.evictions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.job()).isEqualTo(key("low"));
            assertThat(e.action()).isEqualTo("preempt");
            assertThat(e.reason()).contains("preempted by default/high/high-worker-");
        });
        assertThat(r.nominations())
                .hasSize(2)
                .allSatisfy(n -> assertThat(n.job()).isEqualTo(key("high")));
    }

    @Test
    void neverAcrossQueues() {
        SessionResult r = run(
                CONF,
                nodes(2, "2", "8Gi"),
                List.of(QueueInfo.of("q1", 1), QueueInfo.of("q2", 1)),
                List.of(low("q1", 1), high("q2")));
        assertThat(r.evictions()).filteredOn(e -> e.action().equals("preempt")).isEmpty();
    }

    /** The default tiers with preempt, drf's preemptable off: only the first tier chooses victims. */
    private static final SchedulerConf FIRST_TIER_ONLY = SchedulerConf.parse(SchedulerConf.DEFAULT_YAML
            .replace("enqueue, allocate, backfill", "enqueue, allocate, backfill, preempt")
            .replace("  - name: drf\n", "  - name: drf\n    enablePreemptable: false\n"));

    @Test
    void neverBreaksTheVictimsGang() {
        // low needs all 4 of its tasks: taking any would break it.
        SessionResult r =
                run(FIRST_TIER_ONLY, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 4), high("default")));
        assertThat(r.evictions()).isEmpty();
        assertThat(r.nominations()).isEmpty();
    }

    @Test
    void victimsTheFirstTierRefusesAreLeftToDrfInTheSecond() {
        // As in Volcano (its issue 390): gang refuses low's tasks, so the first tier has none, and
        // drf's preemptable, on in the compiled-in default, takes them by share, gang or not.
        SessionResult r = run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 4), high("default")));
        assertThat(r.evictions()).hasSize(2).allSatisfy(e -> assertThat(e.job()).isEqualTo(key("low")));
    }

    @Test
    void anEqualPriorityIsNoVictimOfTheFirstTierButOfDrfsShares() {
        JobInfo peer = JobInfo.builder("peer")
                .priority(1)
                .tasks("worker", 2, Map.of("cpu", "1", "memory", "1Gi"))
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .build();
        List<JobInfo> jobs = List.of(low("default", 1), peer);
        assertThat(run(FIRST_TIER_ONLY, nodes(2, "2", "8Gi"), List.of(), jobs).evictions())
                .isEmpty();
        // peer's share with a task (1 of 4 cpu) is below low's without one (3 of 4): drf lets it take.
        assertThat(run(CONF, nodes(2, "2", "8Gi"), List.of(), jobs).evictions())
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.job()).isEqualTo(key("low")));
    }

    /** Preempt without gang's starving: a job that has its gang may still preempt within itself. */
    private static final SchedulerConf WITHIN_JOB = Fixtures.conf(SchedulerConf.DEFAULT_YAML
            .replace("enqueue, allocate, backfill", "enqueue, allocate, preempt")
            .replace("  - name: gang\n", "  - name: gang\n    enableJobStarving: false\n"));

    /** A running job of one 2-cpu task at priority 1 on n0 and a pending one at 9 with {@code policy}. */
    private static JobInfo mixed(String policy) {
        return JobInfo.builder("mixed")
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("mixed-low")
                        .priority(1)
                        .resreq(Map.of("cpu", "2"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .task(TaskInfo.builder("mixed-high")
                        .priority(9)
                        .resreq(Map.of("cpu", "2"))
                        .preemptionPolicy(policy)
                        .build())
                .build();
    }

    @Test
    void withinAJobAHigherPriorityTaskTakesALowerOnesNode() {
        JobInfo j = mixed(null);
        // The job has its gang, so gang does not call it starving; with that switched off, priority
        // (tasks left pending) does, and the job may preempt within itself.
        assertThat(run(CONF, nodes(1, "2", "8Gi"), List.of(), List.of(j)).evictions())
                .isEmpty();
        var conf = WITHIN_JOB;
        SessionResult r = run(conf, nodes(1, "2", "8Gi"), List.of(), List.of(j));
        assertThat(r.evictions()).singleElement().satisfies(e -> {
            assertThat(e.task()).isEqualTo("mixed-low");
            assertThat(e.reason()).contains("task priority 9");
        });
        assertThat(r.nominations())
                .singleElement()
                .extracting(SessionResult.Nomination::task)
                .isEqualTo("mixed-high");
    }

    /** high's gang of two 1-cpu workers, the first with {@code first}'s preemption policy, the second with {@code second}'s. */
    private static JobInfo high(String first, String second, int minMember) {
        JobInfo.Builder b = JobInfo.builder("high")
                .priority(100)
                .minMember(minMember)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2);
        String[] policies = {first, second};
        for (int i = 0; i < 2; i++) {
            b.task(TaskInfo.builder("high-worker-" + i)
                    .role("worker")
                    .priority(100)
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .preemptionPolicy(policies[i])
                    .build());
        }
        return b.build();
    }

    /** Volcano's preempt_test.go "can not preempt resources when task preemption policy is never" (#3642). */
    @Test
    void aTaskWhosePreemptionPolicyIsNeverTakesNobodysPlace() {
        SessionResult r =
                run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 1), high("Never", "Never", 2)));
        assertThat(r.evictions()).isEmpty();
        assertThat(r.nominations()).isEmpty();
    }

    @Test
    void aTaskThatNeverPreemptsIsPassedOverAndTheJobsNextTaskPreempts() {
        SessionResult r = run(
                CONF,
                nodes(2, "2", "8Gi"),
                List.of(),
                List.of(low("default", 1), high("Never", "PreemptLowerPriority", 1)));
        assertHighWorker1TookOneOfLowsPlaces(r);
    }

    @Test
    void withinAJobATaskThatNeverPreemptsTakesNoLowerOnesNode() {
        JobInfo j = mixed(TaskInfo.PREEMPT_NEVER);
        var conf = WITHIN_JOB;
        assertThat(run(conf, nodes(1, "2", "8Gi"), List.of(), List.of(j)).evictions())
                .isEmpty();
    }

    /** high's gang of minMember 1: each given task is a pending worker at its priority asking its cpu. */
    private static JobInfo highOfOne(String... priorityAndCpu) {
        JobInfo.Builder b = JobInfo.builder("high")
                .priority(100)
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2);
        for (int i = 0; i < priorityAndCpu.length; i++) {
            String[] pc = priorityAndCpu[i].split(":");
            b.task(TaskInfo.builder("high-worker-" + i)
                    .role("worker")
                    .priority(Integer.parseInt(pc[0]))
                    .resreq(Map.of("cpu", pc[1], "memory", "1Gi"))
                    .build());
        }
        return b.build();
    }

    /** Volcano asks JobStarving before each of the job's tasks: once its gang is pipelined it takes no more. */
    @Test
    void aJobThatStopsStarvingTakesNoMorePlaces() {
        SessionResult r =
                run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 1), highOfOne("100:1", "100:1")));
        assertThat(r.evictions())
                .singleElement()
                .satisfies(e -> assertThat(e.job()).isEqualTo(key("low")));
        assertThat(r.nominations())
                .singleElement()
                .satisfies(n -> assertThat(n.job()).isEqualTo(key("high")));
    }

    /** A task no node can make room for (3 cpu, nodes of 2) is passed over; the job's next task preempts. */
    @Test
    void aTaskThatFindsNoRoomIsPassedOverAndTheJobsNextTaskPreempts() {
        SessionResult r =
                run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 1), highOfOne("200:3", "100:1")));
        assertHighWorker1TookOneOfLowsPlaces(r);
    }

    /** Within a job, as in Volcano, the first pending task that cannot preempt ends the job's turn. */
    @Test
    void withinAJobTheFirstTaskThatCannotPreemptEndsTheJobsTurn() {
        JobInfo j = JobInfo.builder("mixed")
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("mixed-low")
                        .priority(1)
                        .resreq(Map.of("cpu", "2"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .task(TaskInfo.builder("mixed-huge")
                        .priority(10)
                        .resreq(Map.of("cpu", "3"))
                        .build())
                .task(TaskInfo.builder("mixed-high")
                        .priority(9)
                        .resreq(Map.of("cpu", "2"))
                        .build())
                .build();
        assertThat(run(WITHIN_JOB, nodes(1, "2", "8Gi"), List.of(), List.of(j)).evictions())
                .isEmpty();
    }

    /**
     * A best-effort task is a preemptor too (Volcano takes every pending task): it needs no room, is
     * pipelined where it fits, and so completes a gang whose other task preempted.
     */
    @Test
    void aBestEffortTaskIsPipelinedAndCompletesTheGang() {
        SchedulerConf noBackfill = Fixtures.defaultTiers("enqueue, allocate, preempt");
        JobInfo gang = JobInfo.builder("high")
                .priority(100)
                .minMember(2)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .task(TaskInfo.builder("high-worker-0")
                        .priority(100)
                        .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                        .build())
                .task(TaskInfo.builder("high-sidecar").priority(100).build())
                .build();
        SessionResult r = run(noBackfill, nodes(2, "2", "8Gi"), List.of(), List.of(low("default", 1), gang));
        assertThat(r.evictions())
                .singleElement()
                .satisfies(e -> assertThat(e.job()).isEqualTo(key("low")));
        assertThat(r.nominations())
                .extracting(SessionResult.Nomination::task)
                .containsExactlyInAnyOrder("high-worker-0", "high-sidecar");
    }

    /**
     * Volcano's preemptorFitsOnNode asks the queue too: a queue at its capability gets no task
     * pipelined on a free node; a victim of the same queue goes first, which gives the queue room.
     */
    @Test
    void aQueueAtItsCapabilityTakesAPlaceOnlyByEvictingFromItself() {
        JobInfo.Builder running = JobInfo.builder("low")
                .queue("q1")
                .priority(1)
                .phase(PodGroupPhase.Running)
                .creationIndex(1)
                .minMember(1);
        for (int i = 0; i < 2; i++) {
            running.task(TaskInfo.builder("low-" + i)
                    .priority(1)
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .on("n0", TaskStatus.Running)
                    .build());
        }
        JobInfo high = JobInfo.builder("high")
                .queue("q1")
                .priority(100)
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .tasks("worker", 1, Map.of("cpu", "1", "memory", "1Gi"))
                .build();
        SessionResult r = run(
                CONF,
                nodes(2, "2", "8Gi"),
                List.of(QueueInfo.of("q1", 1).withCapability(Map.of("cpu", "2"))),
                List.of(running.build(), high));
        assertThat(r.evictions()).singleElement().satisfies(e -> {
            assertThat(e.job()).isEqualTo(key("low"));
            assertThat(e.node()).isEqualTo("n0");
        });
        assertThat(r.nominations())
                .singleElement()
                .satisfies(n -> assertThat(n.node()).isEqualTo("n0"));
    }

    /** Volcano's PreemptableStatus: a task still being bound (Binding) holds its node but is no victim. */
    @Test
    void aTaskStillBeingBoundIsNoVictim() {
        JobInfo.Builder b = JobInfo.builder("low")
                .priority(1)
                .phase(PodGroupPhase.Running)
                .creationIndex(1)
                .minMember(1);
        for (int i = 0; i < 4; i++) {
            b.task(TaskInfo.builder("low-" + i)
                    .priority(1)
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .on("n" + (i / 2), i < 2 ? TaskStatus.Binding : TaskStatus.Bound)
                    .build());
        }
        SessionResult r = run(CONF, nodes(2, "2", "8Gi"), List.of(), List.of(b.build(), high("default")));
        assertThat(r.evictions())
                .hasSize(2)
                .allSatisfy(e -> assertThat(e.node()).isEqualTo("n1"));
    }

    private static void assertHighWorker1TookOneOfLowsPlaces(SessionResult r) {
        assertThat(r.evictions()).singleElement().satisfies(e -> {
            assertThat(e.job()).isEqualTo(key("low"));
            assertThat(e.reason()).contains("preempted by default/high/high-worker-1");
        });
        assertThat(r.nominations())
                .singleElement()
                .extracting(SessionResult.Nomination::task)
                .isEqualTo("high-worker-1");
    }
}
