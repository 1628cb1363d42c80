package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobControllerTest {

    private final JobController controller = new JobController();
    private final List<WorldAction> actions = new ArrayList<>();
    private final List<Transition> transitions = new ArrayList<>();

    private JobInfo apply(JobInfo s, Input in) {
        Outcome o = controller.apply(s, in);
        actions.addAll(o.actions());
        transitions.addAll(o.transitions());
        return o.state();
    }

    private static Job spark() {
        return TestJobs.job("spark", "minAvailable: 3\nttlSecondsAfterFinished: 0", "driver:1", "executor:4");
    }

    /** Submits and admits the gang; every created pod observed Pending. */
    private JobInfo started(Job job) {
        JobInfo s = apply(JobInfo.empty(), new Input.Submit(job, 0));
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 0));
        for (JobPod p : List.copyOf(s.pods().values())) {
            s = apply(
                    s,
                    new Input.PodObserved(
                            p.name(), p.task(), p.index(), p.version(), PodPhase.Pending, null, 0, false, 0));
        }
        return s;
    }

    private JobInfo observe(JobInfo s, String pod, PodPhase phase, Integer exit, int restarts, long t) {
        JobPod p = s.pods().get(pod);
        return apply(s, new Input.PodObserved(pod, p.task(), p.index(), p.version(), phase, exit, restarts, false, t));
    }

    @Test
    void thePodGroupCarriesTheGang() {
        apply(JobInfo.empty(), new Input.Submit(spark(), 0));
        PodGroup pg = actions.stream()
                .filter(a -> a instanceof WorldAction.UpsertPodGroup)
                .map(a -> ((WorldAction.UpsertPodGroup) a).podGroup())
                .findFirst()
                .orElseThrow();
        assertThat(pg.metadata().name()).isEqualTo("spark");
        assertThat(pg.spec().minMember()).isEqualTo(3);
        assertThat(pg.spec().minTaskMember()).containsEntry("driver", 1).containsEntry("executor", 4);
        assertThat(pg.spec().queue()).isEqualTo("default");
        // The first minAvailable (3) pods: 3 x (500m, 1Gi).
        assertThat(pg.spec().minResources()).containsEntry("cpu", "1500m").containsEntry("memory", "3Gi");
        assertThat(actions).noneMatch(a -> a instanceof WorldAction.CreatePod);
    }

    @Test
    void theClaimOfAnInlineVolumeIsMadeOnceKeptThroughRestartsAndDeletedWithTheJob() {
        Job job = TestJobs.job("data", """
                volumes:
                - mountPath: /scratch
                  volumeClaim: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                - mountPath: /shared
                  volumeClaimName: team-data""", "worker:2");
        JobInfo s = started(job);
        assertThat(actions)
                .filteredOn(WorldAction.CreatePersistentVolumeClaim.class::isInstance)
                .singleElement()
                .satisfies(a -> {
                    WorldAction.CreatePersistentVolumeClaim c = (WorldAction.CreatePersistentVolumeClaim) a;
                    assertThat(c.name()).isEqualTo("data-volume-0");
                    assertThat(c.spec().at("/resources/requests/storage").asText())
                            .isEqualTo("1Gi");
                });
        assertThat(s.job().status().controlledResources()).containsEntry("volume-pvc-data-volume-0", "data-volume-0");

        actions.clear();
        s = apply(s, new Input.Command(Action.RESTART_JOB, null, null, 4));
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 5));
        assertThat(actions)
                .as("a restart keeps the claim, as Volcano's does")
                .noneMatch(a -> a instanceof WorldAction.CreatePersistentVolumeClaim
                        || a instanceof WorldAction.DeleteObject d && d.kind().equals("PersistentVolumeClaim"));

        actions.clear();
        apply(s, new Input.Delete(6));
        assertThat(actions)
                .as("the claim it made goes with the job; the one it was given stays")
                .filteredOn(
                        a -> a instanceof WorldAction.DeleteObject d && d.kind().equals("PersistentVolumeClaim"))
                .containsExactly(new WorldAction.DeleteObject("PersistentVolumeClaim", "data-volume-0"));
    }

    @Test
    void aPodKeepsTheNodeItWasLastReportedOn() {
        JobInfo s = started(spark());
        assertThat(s.pods().get("spark-driver-0").node()).as("not bound yet").isNull();
        JobPod p = s.pods().get("spark-driver-0");
        s = apply(
                s,
                new Input.PodObserved(
                        p.name(), p.task(), p.index(), p.version(), PodPhase.Running, null, 0, false, 3, "node-a"));
        assertThat(s.pods().get("spark-driver-0").node()).isEqualTo("node-a");
        // A report that names no node (some writers leave it out once the pod ends) keeps the one known.
        s = observe(s, "spark-driver-0", PodPhase.Failed, 1, 2, 4);
        assertThat(s.pods().get("spark-driver-0"))
                .extracting(JobPod::node, JobPod::restartCount, JobPod::exitCode)
                .containsExactly("node-a", 2, 1);
    }

    @Test
    void podsAreCreatedOnlyOnceThePodGroupIsInqueue() {
        JobInfo s = started(spark());
        assertThat(actions).filteredOn(a -> a instanceof WorldAction.CreatePod).hasSize(5);
        assertThat(s.pods()).containsKeys("spark-driver-0", "spark-executor-3");
        assertThat(s.job().status().pending()).isEqualTo(5);
    }

    @Test
    void aPodNoTaskHasAPlaceForIsDeletedAndCountedTerminating() {
        JobInfo s = started(spark());
        actions.clear();
        // Reported by the world, yet the spec has executors 0..3 only (a scale down seen late, a stray pod).
        s = apply(s, new Input.PodObserved("spark-executor-4", "executor", 4, 0, PodPhase.Running, null, 0, false, 5));
        assertThat(actions)
                .containsExactly(
                        new WorldAction.DeletePod("spark-executor-4", "scaled down: task executor has 4 replica(s)"));
        assertThat(s.pods().get("spark-executor-4").terminating()).isTrue();
        assertThat(s.job().status().terminating()).isEqualTo(1);
        assertThat(s.job().status().pending()).isEqualTo(5);
        // Every pod in its place again: nothing more to delete.
        actions.clear();
        s = observe(s, "spark-driver-0", PodPhase.Running, null, 0, 6);
        assertThat(actions).noneMatch(a -> a instanceof WorldAction.DeletePod);
        assertThat(s.job().status().running()).isEqualTo(1);
    }

    @Test
    void containerRestartsOverTheTaskMaxRetryRaiseTaskFailed() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: tf}
                spec:
                  tasks:
                  - name: worker
                    replicas: 2
                    maxRetry: 2
                    policies:
                    - {event: TaskFailed, action: TerminateJob}
                    template: {spec: {containers: [{name: c, image: i}]}}
                """);
        JobInfo s = started(job);
        s = observe(s, "tf-worker-0", PodPhase.Running, null, 2, 1);
        assertThat(s.phase()).isEqualTo(JobPhase.Pending);
        s = observe(s, "tf-worker-0", PodPhase.Running, null, 3, 2);
        assertThat(s.phase()).isEqualTo(JobPhase.Terminating);
        assertThat(transitions.get(transitions.size() - 1).event()).isEqualTo("TaskFailed");
        assertThat(transitions.get(transitions.size() - 1).policy()).isEqualTo("spec.tasks[0].policies[0]");
    }

    @Test
    void aDuplicatedOrLateEventCannotMoveAFinishedJob() {
        JobInfo s = started(TestJobs.job("one", "", "w:1"));
        s = observe(s, "one-w-0", PodPhase.Running, null, 0, 1);
        s = observe(s, "one-w-0", PodPhase.Succeeded, null, 0, 2);
        assertThat(s.phase()).isEqualTo(JobPhase.Completed);
        int before = transitions.size();
        s = observe(s, "one-w-0", PodPhase.Succeeded, null, 0, 3);
        s = apply(s, new Input.Command(Action.RESTART_JOB, null, null, 4));
        assertThat(s.phase()).isEqualTo(JobPhase.Completed);
        assertThat(transitions).hasSize(before);
    }

    @Test
    void ttlZeroDeletesTheFinishedJobAtOnceAndEverythingItOwns() {
        JobInfo s = started(spark());
        for (JobPod p : List.copyOf(s.pods().values())) {
            s = observe(s, p.name(), PodPhase.Running, null, 0, 5);
        }
        s = apply(s, new Input.Command(Action.COMPLETE_JOB, null, null, 6));
        for (JobPod p : List.copyOf(s.pods().values())) {
            s = apply(
                    s, new Input.PodObserved(p.name(), p.task(), p.index(), p.version(), p.phase(), null, 0, true, 7));
        }
        assertThat(s.phase()).isEqualTo(JobPhase.Completed);
        assertThat(s.deleted()).isTrue();
        assertThat(actions).anyMatch(a -> a instanceof WorldAction.DeleteJob);
        int n = actions.size();
        s = apply(s, new Input.Command(Action.RESUME_JOB, null, null, 8));
        assertThat(actions).hasSize(n);
    }

    @Test
    void theStateSurvivesJsonAndReplaysIdentically() throws Exception {
        Job job = TestJobs.job("js", """
                policies:
                - event: PodPending
                  action: RestartJob
                  timeout: 90s
                plugins:
                  svc: []
                """, "w:2");
        JobInfo s = started(job);
        assertThat(s.timers()).hasSize(2);
        assertThat(s.nextDue()).hasValue(90_000);
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(s);
        JobInfo back = json.readValue(text, JobInfo.class);
        assertThat(json.writeValueAsString(back)).isEqualTo(text);
        Outcome a = controller.apply(s, new Input.Tick(90_000));
        Outcome b = controller.apply(back, new Input.Tick(90_000));
        assertThat(json.writeValueAsString(a)).isEqualTo(json.writeValueAsString(b));
        assertThat(a.state().phase()).isEqualTo(JobPhase.Restarting);
        assertThat(a.transitions().get(0).message()).contains("PodPending", "RestartJob (spec.policies[0])");
        Input in = json.readValue(json.writeValueAsString(new Input.Tick(5)), Input.class);
        assertThat(in).isEqualTo(new Input.Tick(5));
    }

    @Test
    void aKillGivesBackThePluginObjectsAndARestartedJobGetsThemAnew() {
        Job job = TestJobs.job("pl", """
                plugins:
                  svc: []
                  ssh: []
                """, "w:1");
        JobInfo s = started(job);
        assertThat(s.job().status().controlledResources())
                .containsEntry("plugin-svc", "svc")
                .containsEntry("plugin-ssh", "ssh");
        actions.clear();
        s = apply(s, new Input.Command(Action.RESTART_JOB, null, null, 1));
        assertThat(actions)
                .anyMatch(
                        a -> a instanceof WorldAction.DeleteObject d && d.kind().equals("Secret"));
        assertThat(s.job().status().controlledResources()).doesNotContainKey("plugin-ssh");
        for (JobPod p : List.copyOf(s.pods().values())) {
            s = apply(
                    s, new Input.PodObserved(p.name(), p.task(), p.index(), p.version(), p.phase(), null, 0, true, 2));
        }
        actions.clear();
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 3));
        assertThat(s.phase()).isEqualTo(JobPhase.Pending);
        assertThat(actions).anyMatch(a -> a instanceof WorldAction.RequestSshSecret);
        assertThat(actions).anyMatch(a -> a instanceof WorldAction.CreatePod);
        assertThat(s.job().status().controlledResources()).containsKeys("plugin-svc", "plugin-ssh");
    }

    @Test
    void newsOfAnEarlierPodOfTheSameNameIsIgnored() {
        JobInfo s = started(TestJobs.job("st", "", "w:1"));
        s = apply(s, new Input.Command(Action.RESTART_JOB, null, null, 1));
        s = apply(s, new Input.PodObserved("st-w-0", "w", 0, 0, PodPhase.Pending, null, 0, true, 2));
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 3));
        assertThat(s.pods().get("st-w-0").version()).isEqualTo(1);
        int before = transitions.size();
        JobInfo after = apply(s, new Input.PodObserved("st-w-0", "w", 0, 0, PodPhase.Failed, 1, 0, false, 4));
        assertThat(after.pods().get("st-w-0").phase()).isEqualTo(PodPhase.Pending);
        assertThat(transitions).hasSize(before);
    }

    /** Once per killing action (package-info): the kills Aborting and Aborted answer syncs with leave it be. */
    @Test
    void theVersionIsBumpedOncePerKillingActionNotPerKill() {
        JobInfo s = started(TestJobs.job("ab", "", "w:2"));
        s = observe(s, "ab-w-0", PodPhase.Running, null, 0, 1);
        s = apply(s, new Input.Command(Action.ABORT_JOB, null, null, 2));
        assertThat(s.phase()).isEqualTo(JobPhase.Aborting);
        assertThat(s.version()).isEqualTo(1);
        for (JobPod p : List.copyOf(s.pods().values())) {
            s = apply(
                    s, new Input.PodObserved(p.name(), p.task(), p.index(), p.version(), p.phase(), null, 0, true, 3));
        }
        assertThat(s.phase()).isEqualTo(JobPhase.Aborted);
        assertThat(transitions).extracting(Transition::to).containsSubsequence(JobPhase.Aborting, JobPhase.Aborted);
        assertThat(s.version()).isEqualTo(1);
        s = apply(s, new Input.Command(Action.RESUME_JOB, null, null, 4));
        assertThat(s.version()).isEqualTo(2);
    }

    @Test
    void aPendingJobSaysWhyItsGangCannotBeScheduledAndWhenItIsAdmitted() {
        JobInfo s = apply(JobInfo.empty(), new Input.Submit(spark(), 0));
        int before = transitions.size();
        s = apply(
                s,
                new Input.PodGroupObserved(
                        PodGroupPhase.Pending,
                        1,
                        "NotEnoughResources",
                        "3/5 tasks in gang unschedulable: 3 Insufficient cpu (need 4, largest free 2 on node-7)"));
        assertThat(s.phase()).isEqualTo(JobPhase.Pending);
        assertThat(s.job().status().state().reason()).isEqualTo("NotEnoughResources");
        assertThat(s.job().status().state().message())
                .isEqualTo("pod group spark is Pending: 3/5 tasks in gang unschedulable: 3 Insufficient cpu (need 4, "
                        + "largest free 2 on node-7)");
        // The reason is news, not a phase change: no transition, and the phase keeps its time.
        assertThat(transitions).hasSize(before);

        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 2));
        assertThat(s.job().status().state().reason()).isEqualTo("CreatingPods");
        assertThat(s.job().status().state().message())
                .isEqualTo("pod group spark is Inqueue: admitted to its queue, its pods are being created");
    }

    @Test
    void aPendingJobsReasonNamesWhatItWaitsForAndNeverAPhaseItIsNotIn() {
        JobInfo s = apply(JobInfo.empty(), new Input.Submit(spark(), 0));
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1, "NotEnoughResources", "3 Insufficient cpu"));
        assertThat(s.job().status().state().reason()).isEqualTo("NotEnoughResources");
        // The condition is gone while the group stays Inqueue: the stale "unschedulable" goes too.
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 2));
        assertThat(s.job().status().state().reason()).isEqualTo("CreatingPods");
        // The gang is bound but its pods do not run yet: the job is Pending, and its reason is not "Running".
        s = apply(s, new Input.PodGroupObserved(PodGroupPhase.Running, 3));
        assertThat(s.phase()).isEqualTo(JobPhase.Pending);
        assertThat(s.job().status().state().reason()).isEqualTo("StartingPods");
        assertThat(s.job().status().state().message())
                .isEqualTo("pod group spark is Running: its gang is bound, waiting for "
                        + s.job().spec().minAvailable() + " pods to run");
    }

    @Test
    void aRunningJobShowsHowLongItHasRunAsOfItsLatestRecord() {
        JobInfo s = started(TestJobs.job("rd", "", "w:2"));
        assertThat(s.job().status().runningDuration()).isNull();
        s = observe(s, "rd-w-0", PodPhase.Running, null, 0, 61_000);
        s = observe(s, "rd-w-1", PodPhase.Running, null, 0, 90_500);
        assertThat(s.phase()).isEqualTo(JobPhase.Running);
        assertThat(s.job().status().runningDuration()).isEqualTo("1m30.5s");
        s = observe(s, "rd-w-0", PodPhase.Running, null, 1, 125_000);
        assertThat(s.job().status().runningDuration()).isEqualTo("2m5s");
    }

    @Test
    void aRunningJobKeepsTheReasonOfItsLastTransition() {
        JobInfo s = started(TestJobs.job("rj", "", "w:2"));
        for (String pod : List.of("rj-w-0", "rj-w-1")) {
            s = observe(s, pod, PodPhase.Running, null, 0, 1);
        }
        assertThat(s.phase()).isEqualTo(JobPhase.Running);
        String reason = s.job().status().state().reason();
        String message = s.job().status().state().message();
        s = apply(
                s,
                new Input.PodGroupObserved(PodGroupPhase.Running, 2, "NotEnoughResources", "1/2 tasks unschedulable"));
        assertThat(s.job().status().state().reason()).isEqualTo(reason);
        assertThat(s.job().status().state().message()).isEqualTo(message);
    }

    @Test
    void aCommandsMessageReachesTheTransitionAndTheJobStatus() {
        JobInfo s = started(TestJobs.job("msg", "", "w:2"));
        s = apply(s, new Input.Command(Action.ABORT_JOB, null, null, "node maintenance, back at 14:00", 1));
        assertThat(s.phase()).isEqualTo(JobPhase.Aborting);
        Transition aborting = transitions.get(transitions.size() - 1);
        assertThat(aborting.message())
                .isEqualTo("CommandIssued: command AbortJob: node maintenance, back at 14:00 -> AbortJob");
        assertThat(s.job().status().state().message()).isEqualTo(aborting.message());
        for (String pod : List.of("msg-w-0", "msg-w-1")) {
            s = apply(
                    s, new Input.PodObserved(pod, "w", Integer.parseInt(pod.substring(6)), 0, null, null, 0, true, 2));
        }
        assertThat(s.phase()).isEqualTo(JobPhase.Aborted);
        // The phase that ends the kill still says why it started.
        assertThat(s.job().status().state().message()).endsWith("(after " + aborting.message() + ")");

        s = apply(s, new Input.Command(Action.RESUME_JOB, null, null, "  ", 3));
        // A blank message adds nothing.
        assertThat(transitions)
                .filteredOn(t -> t.to() == JobPhase.Restarting)
                .last()
                .extracting(Transition::message)
                .isEqualTo("CommandIssued: command ResumeJob -> ResumeJob, retry 1/3");
    }
}
