package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static io.lahar.core.scheduling.Fixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReclaimTest {

    private static final SchedulerConf CONF = Fixtures.defaultTiers("enqueue, allocate, backfill, reclaim");

    /** Queue a fills the 4-cpu cluster with four 1-task jobs; queue b (same weight) then wants 2. */
    private static List<JobInfo> jobs() {
        List<JobInfo> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) jobs.add(running("a" + i, "a", 0, "1", "n" + i));
        jobs.add(JobInfo.builder("b")
                .queue("b")
                .tasks("worker", 2, Map.of("cpu", "1", "memory", "1Gi"))
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(10)
                .build());
        return jobs;
    }

    @Test
    void aStarvedQueueGetsItsDeservedShareBackFromAReclaimableQueue() {
        SessionResult r = run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobs());
        assertThat(r.evictions()).hasSize(2);
        assertThat(r.evictions()).allSatisfy(e -> {
            assertThat(e.job()).startsWith("default/a");
            assertThat(e.action()).isEqualTo("reclaim");
            assertThat(e.reason()).contains("reclaimed by queue \"b\"");
        });
        assertThat(r.nominations()).extracting(SessionResult.Nomination::job).containsExactly(key("b"), key("b"));
        assertThat(r.nominations())
                .extracting(SessionResult.Nomination::node)
                .containsExactlyInAnyOrderElementsOf(
                        r.evictions().stream().map(SessionResult.Eviction::node).toList());
    }

    @Test
    void neverFromANonReclaimableQueue() {
        SessionResult r = run(
                CONF,
                nodes(4, "1", "4Gi"),
                List.of(QueueInfo.of("a", 1).withReclaimable(false), QueueInfo.of("b", 1)),
                jobs());
        assertThat(r.evictions()).isEmpty();
        assertThat(r.nominations()).isEmpty();
        assertThat(r.conditions().get(key("b")).message()).contains("Insufficient cpu");
    }

    /** jobs(), with b asking for four 1-cpu tasks of which minMember must run. */
    private static List<JobInfo> jobsAskingFour(int minMember) {
        List<JobInfo> jobs = new ArrayList<>(jobs().subList(0, 4));
        jobs.add(JobInfo.builder("b")
                .queue("b")
                .tasks("worker", 4, Map.of("cpu", "1", "memory", "1Gi"))
                .minMember(minMember)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(10)
                .build());
        return jobs;
    }

    @Test
    void takesNoMoreThanTheStarvedQueueDeserves() {
        // b deserves 2 of the 4 cpus but its gang needs 3: the third task is refused, the gang is
        // not pipelined, and the two places taken are given back.
        SessionResult r =
                run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobsAskingFour(3));
        assertThat(r.evictions()).isEmpty();
        assertThat(r.conditions().get(key("b")).message()).contains("would exceed its deserved share");
    }

    /** As Volcano's reclaim asks JobStarving before each task: a gang once pipelined takes no more. */
    @Test
    void aJobThatStopsStarvingReclaimsNoMore() {
        SessionResult r =
                run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobsAskingFour(2));
        assertThat(r.evictions()).hasSize(2);
        assertThat(r.nominations()).hasSize(2);
    }

    /** jobs(), with b's two tasks given these preemption policies and b's minMember. */
    private static List<JobInfo> jobsWithPolicies(String first, String second, int minMember) {
        List<JobInfo> jobs = new ArrayList<>(jobs().subList(0, 4));
        JobInfo.Builder b = JobInfo.builder("b")
                .queue("b")
                .minMember(minMember)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(10);
        String[] policies = {first, second};
        for (int i = 0; i < 2; i++) {
            b.task(TaskInfo.builder("b-worker-" + i)
                    .role("worker")
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .preemptionPolicy(policies[i])
                    .build());
        }
        jobs.add(b.build());
        return jobs;
    }

    /** Volcano's reclaim_test.go "can not reclaim resources when task preemption policy is never" (#3642). */
    @Test
    void aTaskWhosePreemptionPolicyIsNeverReclaimsNothing() {
        SessionResult r = run(
                CONF,
                nodes(4, "1", "4Gi"),
                List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)),
                jobsWithPolicies("Never", "Never", 2));
        assertThat(r.evictions()).isEmpty();
        assertThat(r.nominations()).isEmpty();
    }

    /** Volcano's reclaim_test.go "Reclaim succeeds for second task when first task has PreemptionPolicy=Never". */
    @Test
    void theTaskAfterOneThatNeverPreemptsStillReclaims() {
        SessionResult r = run(
                CONF,
                nodes(4, "1", "4Gi"),
                List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)),
                jobsWithPolicies("Never", null, 1));
        assertThat(r.evictions())
                .singleElement()
                .satisfies(e -> assertThat(e.action()).isEqualTo("reclaim"));
        assertThat(r.nominations())
                .singleElement()
                .extracting(SessionResult.Nomination::task)
                .isEqualTo("b-worker-1");
    }

    /** Volcano reclaims only Running tasks: one still being bound is no victim. */
    @Test
    void aTaskNotYetRunningIsNoVictim() {
        List<JobInfo> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(JobInfo.builder("a" + i)
                    .queue("a")
                    .phase(PodGroupPhase.Running)
                    .creationIndex(i)
                    .task(TaskInfo.builder("a" + i + "-0")
                            .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                            .on("n" + i, i < 2 ? TaskStatus.Binding : TaskStatus.Running)
                            .build())
                    .build());
        }
        jobs.add(jobs().get(4));
        SessionResult r = run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobs);
        assertThat(r.evictions()).extracting(SessionResult.Eviction::node).containsExactlyInAnyOrder("n2", "n3");
    }

    /** A task that no node can make room for (3 cpu, nodes of 1) is passed over; the next reclaims. */
    @Test
    void aTaskThatFindsNoRoomIsPassedOverAndTheNextReclaims() {
        List<JobInfo> jobs = new ArrayList<>(jobs().subList(0, 4));
        jobs.add(JobInfo.builder("b")
                .queue("b")
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(10)
                .task(TaskInfo.builder("b-big")
                        .priority(10)
                        .resreq(Map.of("cpu", "3", "memory", "1Gi"))
                        .build())
                .task(TaskInfo.builder("b-small")
                        .priority(1)
                        .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                        .build())
                .build());
        SessionResult r = run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobs);
        assertThat(r.evictions())
                .singleElement()
                .satisfies(e -> assertThat(e.action()).isEqualTo("reclaim"));
        assertThat(r.nominations())
                .singleElement()
                .extracting(SessionResult.Nomination::task)
                .isEqualTo("b-small");
    }
}
