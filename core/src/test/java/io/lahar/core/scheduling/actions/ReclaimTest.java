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

    @Test
    void takesNoMoreThanTheStarvedQueueDeserves() {
        // b asks for 4 but deserves 2 of the 4 cpus: only two of a's tasks go.
        List<JobInfo> jobs = new ArrayList<>(jobs().subList(0, 4));
        jobs.add(JobInfo.builder("b")
                .queue("b")
                .tasks("worker", 4, Map.of("cpu", "1", "memory", "1Gi"))
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(10)
                .build());
        SessionResult r = run(CONF, nodes(4, "1", "4Gi"), List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1)), jobs);
        assertThat(r.evictions()).hasSize(2);
        assertThat(r.conditions().get(key("b")).message()).contains("would exceed its deserved share");
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
}
