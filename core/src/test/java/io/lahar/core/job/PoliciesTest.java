package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.Job;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PoliciesTest {

    private static final Job JOB = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: p}
            spec:
              policies:
              - {event: PodEvicted, action: RestartJob}
              - {exitCode: 137, action: TerminateJob}
              - {events: [PodFailed, Unknown], action: AbortJob}
              - {event: PodPending, action: AbortJob, timeout: 5m}
              tasks:
              - name: driver
                replicas: 1
                policies:
                - {event: PodPending, action: RestartTask}
                - {event: PodEvicted, action: CompleteJob}
                template: {spec: {containers: [{name: c, image: i}]}}
              - name: executor
                replicas: 2
                policies:
                - {exitCode: 3, action: RestartPod, timeout: 30s}
                - {event: TaskCompleted, action: CompleteJob}
                template: {spec: {containers: [{name: c, image: i}]}}
            """);

    private static Request req(String event, String task, Integer exit) {
        return new Request(
                Event.of(event).orElseThrow(), null, task, task == null ? null : "p-" + task + "-0", exit, 0, null);
    }

    @Test
    void taskPoliciesComeBeforeJobPolicies() {
        PolicyMatch m = Policies.resolve(JOB.spec(), req("PodEvicted", "driver", null), 0);
        assertThat(m.action()).isEqualTo(Action.COMPLETE_JOB);
        assertThat(m.policy()).isEqualTo("spec.tasks[0].policies[1]");
        PolicyMatch job = Policies.resolve(JOB.spec(), req("PodEvicted", "executor", null), 0);
        assertThat(job.action()).isEqualTo(Action.RESTART_JOB);
        assertThat(job.policy()).isEqualTo("spec.policies[0]");
    }

    @Test
    void exitCodeMatchesAtTaskThenJobLevelWithItsTimeout() {
        PolicyMatch task = Policies.resolve(JOB.spec(), req("PodFailed", "executor", 3), 0);
        assertThat(task.action()).isEqualTo(Action.RESTART_POD);
        assertThat(task.delay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(task.delayed()).isTrue();
        // Exit 137 on the executor: the task has no policy for it, the job's exitCode policy comes
        // before its PodFailed one.
        PolicyMatch job = Policies.resolve(JOB.spec(), req("PodFailed", "executor", 137), 0);
        assertThat(job.action()).isEqualTo(Action.TERMINATE_JOB);
        assertThat(job.policy()).isEqualTo("spec.policies[1]");
        PolicyMatch other = Policies.resolve(JOB.spec(), req("PodFailed", "executor", 1), 0);
        assertThat(other.action()).isEqualTo(Action.ABORT_JOB);
        assertThat(other.policy()).isEqualTo("spec.policies[2]");
    }

    @Test
    void eventsListAndJobLevelEventsWithoutATask() {
        assertThat(Policies.resolve(JOB.spec(), req("Unknown", null, null), 0).action())
                .isEqualTo(Action.ABORT_JOB);
        assertThat(Policies.resolve(JOB.spec(), req("TaskCompleted", "executor", null), 0)
                        .action())
                .isEqualTo(Action.COMPLETE_JOB);
    }

    @Test
    void podPendingNeedsATimeoutSoATaskPolicyWithoutOneFallsThrough() {
        PolicyMatch m = Policies.resolve(JOB.spec(), req("PodPending", "driver", null), 0);
        // driver's PodPending policy has no timeout: skipped, the job's (with one) matches.
        assertThat(m.action()).isEqualTo(Action.ABORT_JOB);
        assertThat(m.delay()).isEqualTo(Duration.ofMinutes(5));
        assertThat(m.policy()).isEqualTo("spec.policies[3]");
    }

    @Test
    void internalEventsAndOldVersionsOnlySync() {
        assertThat(Policies.resolve(JOB.spec(), req("OutOfSync", "driver", null), 0)
                        .action())
                .isEqualTo(Action.SYNC_JOB);
        assertThat(Policies.resolve(JOB.spec(), req("PodRunning", "driver", null), 0)
                        .action())
                .isEqualTo(Action.SYNC_JOB);
        Request old = new Request(Event.POD_EVICTED, null, "executor", "p-executor-0", null, 1, null);
        assertThat(Policies.resolve(JOB.spec(), old, 2).action()).isEqualTo(Action.SYNC_JOB);
        assertThat(Policies.resolve(JOB.spec(), old, 1).action()).isEqualTo(Action.RESTART_JOB);
    }

    @Test
    void aCommandIsTakenAsGiven() {
        Request cmd = Request.command(Action.RESUME_JOB, null, null, 0, null);
        PolicyMatch m = Policies.resolve(JOB.spec(), cmd, 0);
        assertThat(m.action()).isEqualTo(Action.RESUME_JOB);
        assertThat(m.policy()).isNull();
    }

    @Test
    void noMatchSyncs() {
        Job plain = TestJobs.job("plain", "", "w:2");
        assertThat(Policies.resolve(plain.spec(), req("PodFailed", "w", 1), 0).action())
                .isEqualTo(Action.SYNC_JOB);
    }
}
