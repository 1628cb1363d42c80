package io.lahar.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Job;
import io.lahar.core.job.TestJobs;
import io.lahar.core.job.WorldAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationTest {

    static List<StepReport> run(Job job, boolean manual, String script) {
        Simulation sim = new Simulation(job, AdmissionContext.freshInstall().with(job), manual);
        List<StepReport> out = new ArrayList<>();
        out.add(sim.start());
        List<ScriptStep> steps = ScriptParser.parse(script);
        for (int i = 0; i < steps.size(); i++) {
            out.add(sim.run(i + 1, steps.get(i)));
        }
        return out;
    }

    static StepReport last(List<StepReport> r) {
        return r.get(r.size() - 1);
    }

    private static final String ALL_RUN = """
            {"pod":{"task":"ps","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":1,"phase":"Running"}}
            """;

    private static Job tf(String policies) {
        return TestJobs.job("tf", policies, "ps:1", "worker:2");
    }

    @Test
    void submissionCreatesThePodsOnceThePodGroupIsAdmitted() {
        List<StepReport> r = run(tf(""), false, "");
        StepReport s0 = r.get(0);
        assertThat(s0.step()).isZero();
        assertThat(s0.phase()).isEqualTo("Pending");
        assertThat(s0.transitions()).containsExactly("Pending");
        assertThat(s0.pending()).isEqualTo(3);
        assertThat(s0.pods()).containsOnlyKeys("ps-0", "worker-0", "worker-1").containsValue("Pending");
    }

    @Test
    void theGangRunsWhenMinAvailablePodsRun() {
        List<StepReport> r = run(tf(""), false, ALL_RUN);
        assertThat(r.get(2).phase()).isEqualTo("Pending");
        assertThat(r.get(3).phase()).isEqualTo("Running");
        assertThat(r.get(3).transitions()).containsExactly("Running");
        assertThat(r.get(3).reason()).isEqualTo("MinAvailableReached");
    }

    @Test
    void allSucceededCompletesAndTheTtlDeletesTheJob() {
        Job job = tf("ttlSecondsAfterFinished: 60");
        List<StepReport> r = run(job, false, ALL_RUN + """
                {"pod":{"task":"ps","index":0,"phase":"Succeeded"}}
                {"pod":{"task":"worker","index":0,"phase":"Succeeded"}}
                {"pod":{"task":"worker","index":1,"phase":"Succeeded"}}
                {"advance":"59s"}
                {"advance":"1s"}
                """);
        assertThat(r.get(6).phase()).isEqualTo("Completed");
        assertThat(r.get(6).succeeded()).isEqualTo(3);
        assertThat(r.get(7).deleted()).isNull();
        assertThat(r.get(8).deleted()).isTrue();
    }

    @Test
    void aFailedPodWithoutPolicyLeavesTheJobRunningUntilAllFinish() {
        List<StepReport> r = run(tf(""), false, ALL_RUN + """
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":1}}
                {"pod":{"task":"ps","index":0,"phase":"Succeeded"}}
                {"pod":{"task":"worker","index":0,"phase":"Succeeded"}}
                """);
        assertThat(r.get(4).phase()).isEqualTo("Running");
        assertThat(last(r).phase()).isEqualTo("Failed");
        // Admission gave each task minAvailable = replicas: worker has 1 success for 2 needed.
        assertThat(last(r).reason()).isEqualTo("TaskMinAvailableNotMet");
        assertThat(last(r).message()).contains("task worker has 1 succeeded < its minAvailable 2");
    }

    @Test
    void restartsCountAgainstMaxRetryThenTheJobFails() {
        Job job = tf("""
                maxRetry: 2
                policies:
                - event: PodFailed
                  action: RestartJob
                """);
        List<StepReport> r = run(job, false, ALL_RUN + """
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":137}}
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":137}}
                """);
        StepReport first = r.get(4);
        assertThat(first.transitions()).containsExactly("Restarting", "Pending");
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.retryCount()).isEqualTo(1);
        assertThat(first.pods()).hasSize(3).allSatisfy((k, v) -> assertThat(v).isEqualTo("Pending"));
        StepReport second = r.get(5);
        assertThat(second.transitions()).containsExactly("Restarting", "Failed");
        assertThat(second.retryCount()).isEqualTo(2);
        assertThat(second.reason()).isEqualTo("MaxRetryExceeded");
        // The last retry keeps the finished pods: the failed one explains the failure.
        assertThat(second.failed()).isEqualTo(1);
        assertThat(second.message()).contains("PodFailed: pod tf-worker-1 exited 137 -> RestartJob (spec.policies[0])");
    }

    @Test
    void theMessageSaysWhatHappenedAndWhichPolicyActed() {
        Job job = tf("""
                policies:
                - event: PodFailed
                  action: RestartJob
                """);
        List<StepReport> r = run(job, true, "{\"podgroup\":\"Inqueue\"}\n" + ALL_RUN + """
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":137}}
                """);
        StepReport s = last(r);
        assertThat(s.phase()).isEqualTo("Restarting");
        assertThat(s.message())
                .isEqualTo("PodFailed: pod tf-worker-1 exited 137 -> RestartJob (spec.policies[0]), retry 1/3");
        assertThat(s.terminating()).isEqualTo(3);
    }

    @Test
    void anEventFromAPodOfAnOlderVersionDoesNotTriggerPolicies() {
        Job job = tf("""
                policies:
                - event: PodEvicted
                  action: RestartJob
                """);
        // Manual: the killed pods stay terminating; evicting one of them now is news of an old run.
        List<StepReport> r = run(job, true, """
                {"podgroup":"Inqueue"}
                {"command":"RestartJob"}
                {"pod":{"task":"worker","index":0,"evicted":true}}
                """);
        assertThat(r.get(2).version()).isEqualTo(1);
        assertThat(r.get(3).retryCount()).isEqualTo(1);
        assertThat(r.get(3).transitions()).isEmpty();
    }

    @Test
    void abortKeepsFinishedPodsAndResumeRunsTheRest() {
        List<StepReport> r = run(tf(""), false, ALL_RUN + """
                {"pod":{"task":"worker","index":0,"phase":"Succeeded"}}
                {"command":"AbortJob"}
                {"command":"ResumeJob"}
                """);
        StepReport aborted = r.get(5);
        assertThat(aborted.transitions()).containsExactly("Aborting", "Aborted");
        assertThat(aborted.succeeded()).isEqualTo(1);
        assertThat(aborted.running()).isZero();
        StepReport resumed = r.get(6);
        assertThat(resumed.transitions()).containsExactly("Restarting", "Pending");
        assertThat(resumed.retryCount()).isEqualTo(1);
        // The succeeded pod is kept and counted; only the others are created again.
        assertThat(resumed.succeeded()).isEqualTo(1);
        assertThat(resumed.pending()).isEqualTo(2);
    }

    @Test
    void minSuccessCompletesAndKillsTheRest() {
        Job job = tf("minSuccess: 1");
        List<StepReport> r = run(job, false, ALL_RUN + """
                {"pod":{"task":"ps","index":0,"phase":"Succeeded"}}
                """);
        StepReport s = last(r);
        assertThat(s.transitions()).containsExactly("Completed");
        assertThat(s.running()).isZero();
        assertThat(s.pods()).containsOnlyKeys("ps-0");
    }

    @Test
    void taskCompletedPolicyCompletesTheJob() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: sp}
                spec:
                  tasks:
                  - name: driver
                    replicas: 1
                    policies:
                    - {event: TaskCompleted, action: CompleteJob}
                    template: {spec: {containers: [{name: c, image: i}]}}
                  - name: executor
                    replicas: 2
                    template: {spec: {containers: [{name: c, image: i}]}}
                """);
        List<StepReport> r = run(job, false, """
                {"pod":{"task":"driver","index":0,"phase":"Running"}}
                {"pod":{"task":"executor","index":0,"phase":"Running"}}
                {"pod":{"task":"executor","index":1,"phase":"Running"}}
                {"pod":{"task":"driver","index":0,"phase":"Succeeded"}}
                """);
        StepReport s = last(r);
        assertThat(s.transitions()).containsExactly("Completing", "Completed");
        assertThat(s.succeeded()).isEqualTo(1);
        assertThat(s.message()).contains("TaskCompleted: task driver completed");
    }

    @Test
    void podPendingTimeoutFiresUnlessThePodRuns() {
        Job job = tf("""
                policies:
                - event: PodPending
                  action: AbortJob
                  timeout: 1m
                """);
        List<StepReport> ran = run(job, false, ALL_RUN + """
                {"advance":"2m"}
                """);
        assertThat(last(ran).phase()).isEqualTo("Running");
        List<StepReport> stuck = run(job, false, """
                {"pod":{"task":"ps","index":0,"phase":"Running"}}
                {"advance":"30s"}
                {"advance":"30s"}
                """);
        assertThat(stuck.get(2).phase()).isEqualTo("Pending");
        assertThat(last(stuck).transitions()).containsExactly("Aborting", "Aborted");
        assertThat(last(stuck).message()).contains("PodPending", "AbortJob (spec.policies[0])");
    }

    @Test
    void restartTaskRecreatesOnlyThatTask() {
        List<StepReport> r = run(tf(""), false, ALL_RUN + """
                {"command":"RestartTask","task":"worker"}
                """);
        StepReport s = last(r);
        assertThat(s.transitions()).containsExactly("Restarting", "Pending");
        assertThat(s.version()).isZero();
        assertThat(s.retryCount()).isEqualTo(1);
        assertThat(s.pods()).containsEntry("ps-0", "Running").containsEntry("worker-0", "Pending");
    }

    @Test
    void scaleUpdateCreatesAndDeletesPods() {
        List<StepReport> r = run(tf(""), false, ALL_RUN + """
                {"update":{"minAvailable":2,"tasks":[{"name":"worker","replicas":1,"minAvailable":1}]}}
                {"update":{"tasks":[{"name":"worker","replicas":4}]}}
                {"update":{"tasks":[{"name":"chief","replicas":1}]}}
                """);
        assertThat(r.get(4).pods()).containsOnlyKeys("ps-0", "worker-0");
        assertThat(r.get(5).pods()).containsOnlyKeys("ps-0", "worker-0", "worker-1", "worker-2", "worker-3");
        assertThat(last(r).rejected()).isNotEmpty();
    }

    @Test
    void manualModeWaitsForThePodGroupAndForSettle() {
        Job job = tf("");
        List<StepReport> r = run(job, true, """
                {"podgroup":"Inqueue"}
                {"command":"RestartJob"}
                {"settle":true}
                """);
        assertThat(r.get(0).pods()).isEmpty();
        assertThat(r.get(1).pods()).hasSize(3);
        assertThat(r.get(2).phase()).isEqualTo("Restarting");
        assertThat(r.get(2).terminating()).isEqualTo(3);
        assertThat(r.get(3).transitions()).containsExactly("Pending");
        assertThat(r.get(3).version()).isEqualTo(1);
        assertThat(r.get(3).pods())
                .hasSize(3)
                .allSatisfy((k, v) -> assertThat(v).isEqualTo("Pending"));
    }

    @Test
    void unknownPodGroupRaisesTheUnknownEvent() {
        Job job = tf("""
                policies:
                - event: Unknown
                  action: TerminateJob
                """);
        List<StepReport> r = run(job, false, ALL_RUN + """
                {"podgroup":"Unknown"}
                """);
        assertThat(last(r).transitions()).containsExactly("Terminating", "Terminated");
    }

    @Test
    void aStepAboutAPodThatDoesNotExistChangesNothingAndSaysSo() {
        List<StepReport> r = run(tf(""), false, "{\"pod\":{\"task\":\"worker\",\"index\":9,\"phase\":\"Running\"}}");
        assertThat(r.get(1).ignored()).contains("worker-9");
        assertThat(r.get(1).pending()).isEqualTo(3);
        assertThat(r.get(0).ignored()).isNull();
    }

    @Test
    void replayingTheSameScriptGivesTheSameOutcome() {
        Job job = tf("""
                policies:
                - event: "*"
                  action: RestartJob
                plugins:
                  svc: []
                  ssh: []
                  env: []
                """);
        String script = ALL_RUN + """
                {"pod":{"task":"worker","index":0,"phase":"Failed","exitCode":2}}
                {"advance":"10s"}
                {"pod":{"task":"ps","index":0,"phase":"Running"}}
                """;
        Simulation a = new Simulation(job, AdmissionContext.freshInstall(), false);
        Simulation b = new Simulation(job, AdmissionContext.freshInstall(), false);
        a.start();
        b.start();
        List<ScriptStep> steps = ScriptParser.parse(script);
        for (int i = 0; i < steps.size(); i++) {
            assertThat(a.run(i + 1, steps.get(i))).isEqualTo(b.run(i + 1, steps.get(i)));
        }
        assertThat(a.actions()).isEqualTo(b.actions());
        assertThat(a.actions()).anyMatch(x -> x instanceof WorldAction.RequestSshSecret);
        assertThat(a.state()).isEqualTo(b.state());
    }

    @Test
    void aTaskThatDependsOnAnotherStartsOnceThatOneRuns() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: dag}
                spec:
                  minAvailable: 1
                  tasks:
                  - name: loader
                    replicas: 1
                    template: {spec: {containers: [{name: c, image: i}]}}
                  - name: trainer
                    replicas: 2
                    dependsOn: {name: [loader]}
                    template: {spec: {containers: [{name: c, image: i}]}}
                """);
        List<StepReport> r = run(job, false, """
                {"pod":{"task":"loader","index":0,"phase":"Running"}}
                """);
        assertThat(r.get(0).pods()).containsOnlyKeys("loader-0");
        assertThat(r.get(1).pods()).containsOnlyKeys("loader-0", "trainer-0", "trainer-1");
        assertThat(r.get(1).phase()).isEqualTo("Running");
    }

    @Test
    void anExitCodePolicyOfTheTaskRestartsOnlyThatPod() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: ec}
                spec:
                  policies:
                  - {event: PodFailed, action: AbortJob}
                  tasks:
                  - name: worker
                    replicas: 2
                    policies:
                    - {exitCode: 42, action: RestartPod}
                    template: {spec: {containers: [{name: c, image: i}]}}
                """);
        List<StepReport> r = run(job, false, """
                {"pod":{"task":"worker","index":0,"phase":"Running"}}
                {"pod":{"task":"worker","index":1,"phase":"Running"}}
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":42}}
                {"pod":{"task":"worker","index":0,"phase":"Failed","exitCode":1}}
                """);
        StepReport restarted = r.get(3);
        assertThat(restarted.transitions()).containsExactly("Restarting", "Pending");
        assertThat(restarted.pods()).containsEntry("worker-0", "Running").containsEntry("worker-1", "Pending");
        assertThat(restarted.message()).isNotEmpty();
        assertThat(last(r).transitions()).containsExactly("Aborting", "Aborted");
    }

    @Test
    void anEvictedPodWithoutPolicyIsCreatedAgain() {
        List<StepReport> r = run(tf(""), false, ALL_RUN + """
                {"pod":{"task":"worker","index":0,"evicted":true}}
                """);
        // The full gang lost a pod: back to Pending until the new one runs.
        assertThat(last(r).phase()).isEqualTo("Pending");
        assertThat(last(r).pods()).containsEntry("worker-0", "Pending");
        assertThat(last(r).transitions()).containsExactly("Pending");
        assertThat(last(r).reason()).isEqualTo("MinAvailableLost");
    }

    @Test
    void terminateKeepsFinishedPodsAndIsFinal() {
        Job job = tf("ttlSecondsAfterFinished: 10");
        List<StepReport> r = run(job, false, ALL_RUN + """
                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":1}}
                {"command":"TerminateJob"}
                {"command":"ResumeJob"}
                {"advance":"10s"}
                """);
        StepReport t = r.get(5);
        assertThat(t.transitions()).containsExactly("Terminating", "Terminated");
        assertThat(t.failed()).isEqualTo(1);
        assertThat(t.running()).isZero();
        assertThat(r.get(6).phase()).isEqualTo("Terminated");
        assertThat(r.get(6).transitions()).isEmpty();
        assertThat(last(r).deleted()).isTrue();
    }
}
