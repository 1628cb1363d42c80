package io.lahar.core.flow;

import static io.lahar.core.api.JobFlowPhase.Failed;
import static io.lahar.core.api.JobFlowPhase.Pending;
import static io.lahar.core.api.JobFlowPhase.Running;
import static io.lahar.core.api.JobFlowPhase.Succeed;
import static io.lahar.core.api.JobFlowPhase.Terminating;
import static io.lahar.core.api.JobPhase.Completed;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifests;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobFlowControllerTest {

    static final String SEED = """
            jobRetainPolicy: %s
            flows:
            - name: a
            - name: b
              dependsOn: {targets: [a]}
            - name: c
              dependsOn: {targets: [b]}
            - name: d
              dependsOn: {targets: [b]}
            - name: e
              dependsOn: {targets: [c, d]}
            """;

    final FlowDriver d = new FlowDriver();

    @Test
    void theSeedDagRunsCAndDInParallelAndEAfterBoth() {
        d.submit(FlowDriver.flow(SEED.formatted("retain")), "a", "b", "c", "d", "e");
        assertThat(d.created()).containsExactly("test-a");
        assertThat(d.state.phase()).isEqualTo(Pending);
        assertThat(d.condition("b")).isEqualTo("Waiting");

        d.job("a", JobPhase.Running);
        assertThat(d.state.phase()).isEqualTo(Running);
        assertThat(d.created()).isEmpty();
        d.job("a", Completed);
        assertThat(d.created()).containsExactly("test-b");
        d.job("b", Completed);
        assertThat(d.created()).containsExactly("test-c", "test-d");
        d.job("c", Completed);
        assertThat(d.created()).as("e waits for d too").isEmpty();
        assertThat(d.condition("e")).isEqualTo("Waiting");
        d.job("d", Completed);
        assertThat(d.created()).containsExactly("test-e");
        assertThat(d.state.phase()).isEqualTo(Running);
        d.job("e", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
        assertThat(d.deleted()).as("retain keeps the jobs").isEmpty();
        JobFlow.JobFlowStatus s = d.state.status();
        assertThat(s.completedJobs()).containsExactly("test-a", "test-b", "test-c", "test-d", "test-e");
        assertThat(s.jobStatusList()).extracting(JobFlow.JobStatusEntry::state).containsOnly("Completed");
        assertThat(d.last.transitions()).extracting(FlowTransition::to).containsExactly(Succeed);
    }

    @Test
    void jobRetainPolicyDeleteRemovesTheJobsAfterSuccess() {
        d.submit(FlowDriver.flow(SEED.formatted("delete")), "a", "b", "c", "d", "e");
        for (String t : List.of("a", "b", "c", "d", "e")) {
            d.job(t, Completed);
        }
        assertThat(d.state.phase()).isEqualTo(Succeed);
        assertThat(d.deleted()).containsExactly("test-a", "test-b", "test-c", "test-d", "test-e");
        assertThat(d.state.jobs().values()).noneMatch(FlowJob::exists);
    }

    @Test
    void theCreatedJobIsOwnedAndLabelledByTheFlow() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n"), "a");
        Job job = ((FlowAction.CreateJob) d.last.actions().get(0)).job();
        assertThat(job.name()).isEqualTo("test-a");
        assertThat(job.metadata().namespace()).isEqualTo("ns");
        assertThat(job.metadata().labels())
                .containsEntry(FlowRun.CREATED_BY_JOB_TEMPLATE, "ns.a")
                .containsEntry(FlowRun.CREATED_BY_JOB_FLOW, "ns.test");
        assertThat(job.metadata().annotations()).containsEntry(FlowRun.CREATED_BY_JOB_TEMPLATE, "ns.a");
        assertThat(job.metadata().ownerReferences()).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo("JobFlow");
            assertThat(o.name()).isEqualTo("test");
            assertThat(o.uid()).isEqualTo("uid-1");
            assertThat(o.controller()).isTrue();
        });
        assertThat(job.spec()).isEqualTo(FlowDriver.template("a").spec());
    }

    @Test
    void anyStrategyNeedsOneTarget() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: b
                - name: c
                  dependsOn: {targets: [a, b], strategy: any}
                """), "a", "b", "c");
        assertThat(d.created()).containsExactly("test-a", "test-b");
        d.job("b", JobPhase.Running);
        assertThat(d.created()).isEmpty();
        d.job("b", Completed);
        assertThat(d.created()).containsExactly("test-c");
    }

    @Test
    void anyStrategySkipsOnlyWhenEveryTargetCanNoLongerHold() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: b
                - name: c
                  dependsOn: {targets: [a, b], strategy: any}
                - name: cleanup
                  dependsOn: {targets: [a, b], strategy: any}
                  when: {phases: [Failed]}
                """), "a", "b", "c", "cleanup");
        d.job("a", JobPhase.Failed);
        assertThat(d.condition("c")).isEqualTo("Waiting");
        assertThat(d.created()).containsExactly("test-cleanup");
        d.job("b", JobPhase.Failed);
        assertThat(d.condition("c")).isEqualTo("Skipped");
        d.job("cleanup", Completed);
        assertThat(d.state.phase()).as("both failures are handled by cleanup").isEqualTo(Succeed);
    }

    @Test
    void aTaskStatusProbeHoldsWhenTheTaskReachesThePhase() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: b
                  dependsOn:
                    targets: [a]
                    probe:
                      taskStatusList: [{taskName: worker, phase: Running}]
                """), "a", "b");
        d.task("a", JobPhase.Pending, "worker", "Pending");
        assertThat(d.created()).isEmpty();
        d.task("a", JobPhase.Running, "worker", "Running");
        assertThat(d.created()).containsExactly("test-b");
        assertThat(d.state.status().conditions().get("test-a").taskStatusCount())
                .containsKey("worker");
    }

    @Test
    void aProbeThatNeverHeldSkipsItsEntryWhenTheTargetEnds() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: b
                  dependsOn:
                    targets: [a]
                    probe:
                      taskStatusList: [{taskName: worker, phase: Running}]
                """), "a", "b");
        d.job("a", Completed);
        assertThat(d.condition("b")).isEqualTo("Skipped");
    }

    @Test
    void thePatchIsMergedIntoTheTemplateTasksAndContainersByName() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                  patch:
                    spec:
                      queue: q1
                      tasks:
                      - name: worker
                        replicas: 3
                        template:
                          spec:
                            containers:
                            - name: main
                              command: [sh, -c, sleep 1s]
                            - name: sidecar
                              image: side:1
                """), "a");
        Job job = ((FlowAction.CreateJob) d.last.actions().get(0)).job();
        assertThat(job.spec().queue()).isEqualTo("q1");
        assertThat(job.spec().tasks()).singleElement().satisfies(t -> {
            assertThat(t.replicas()).isEqualTo(3);
            assertThat(t.pod().containers()).hasSize(2);
            assertThat(t.template().at("/spec/containers/0/image").asText())
                    .as("unpatched fields stay")
                    .isEqualTo("img:1");
            assertThat(t.template().at("/spec/containers/0/command/2").asText()).isEqualTo("sleep 1s");
            assertThat(t.template().at("/spec/containers/1/image").asText()).isEqualTo("side:1");
            assertThat(t.template().at("/spec/restartPolicy").asText()).isEqualTo("OnFailure");
        });
        assertThat(d.state.templates().get("a").spec().tasks().get(0).replicas())
                .as("the template is untouched")
                .isEqualTo(2);
    }

    @Test
    void retryRecreatesAFailedJobAfterAnExponentialBackoffUpToTheCap() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                  retry: {maxRetries: 2, backoff: {base: 10s, cap: 15s}}
                - name: b
                  dependsOn: {targets: [a]}
                """), "a", "b");
        Job first = ((FlowAction.CreateJob) d.last.actions().get(0)).job();
        d.job("a", JobPhase.Failed);
        assertThat(d.deleted()).containsExactly("test-a");
        assertThat(d.created()).isEmpty();
        assertThat(d.condition("a")).isEqualTo("Backoff");
        assertThat(d.state.phase()).isNotIn(Failed, Succeed);
        d.tick(9_999);
        assertThat(d.created()).isEmpty();
        d.tick(10_000);
        assertThat(d.created()).containsExactly("test-a");
        assertThat(((FlowAction.CreateJob) d.last.actions().get(0)).job()).isEqualTo(first);

        d.tick(20_000);
        d.job("a", JobPhase.Failed);
        assertThat(d.deleted()).containsExactly("test-a");
        d.tick(34_999);
        assertThat(d.created()).as("20s is capped at 15s").isEmpty();
        d.tick(35_000);
        assertThat(d.created()).containsExactly("test-a");

        d.job("a", JobPhase.Failed);
        assertThat(d.deleted()).as("retries exhausted").isEmpty();
        assertThat(d.state.phase()).isEqualTo(Failed);
        assertThat(d.condition("b")).isEqualTo("Skipped");
        JobFlow.JobStatusEntry a = d.state.status().jobStatusList().get(0);
        assertThat(a.restartCount()).isEqualTo(2);
        assertThat(a.state()).isEqualTo("Failed");
        assertThat(d.state.status().failedJobs()).containsExactly("test-a");
    }

    @Test
    void aJobThatAdmissionRejectsCountsAsFailedWithItsReasons() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: b
                  dependsOn: {targets: [a]}
                """), "a", "b");
        assertThat(d.created()).containsExactly("test-a");
        d.apply(new FlowInput.JobRejected("test-a", List.of("spec.queue: queue \"gone\" not found"), 0));
        assertThat(d.deleted()).as("a rejected job was never created").isEmpty();
        assertThat(d.state.phase()).isEqualTo(Failed);
        assertThat(d.condition("a")).isEqualTo("Failed");
        assertThat(d.condition("b")).isEqualTo("Skipped");
        assertThat(d.state.status().failedJobs()).containsExactly("test-a");
        assertThat(d.state.status().pendingJobs()).isEmpty();
        assertThat(d.state.status().conditions().get("test-a").message())
                .isEqualTo("job admission rejected the job: spec.queue: queue \"gone\" not found");
        assertThat(d.last.transitions())
                .singleElement()
                .satisfies(
                        t -> assertThat(t.message()).contains("test-a Failed").contains("queue \"gone\" not found"));
    }

    @Test
    void aRejectionOfAJobThatReportedAStatusIsALateEchoAndChangesNothing() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n"), "a");
        d.job("a", JobPhase.Running);
        FlowInfo before = d.state;
        d.apply(new FlowInput.JobRejected("test-a", List.of("metadata.name: job already exists"), 0));
        assertThat(d.state.jobs()).isEqualTo(before.jobs());
        assertThat(d.state.phase()).isEqualTo(Running);
        d.apply(new FlowInput.JobRejected("test-nope", List.of("x"), 0));
        assertThat(d.state.jobs()).isEqualTo(before.jobs());
    }

    @Test
    void aRejectedJobWithRetryWaitsOutItsBackoffKeepingTheReasonThenIsCreatedAgain() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                  retry: {maxRetries: 1, backoff: {base: 10s}}
                """), "a");
        d.apply(new FlowInput.JobRejected("test-a", List.of("spec.queue: queue \"q\" is closed"), 0));
        assertThat(d.deleted()).isEmpty();
        assertThat(d.condition("a")).isEqualTo("Backoff");
        assertThat(d.state.status().conditions().get("test-a").message()).contains("is closed");
        assertThat(d.state.phase()).isNotIn(Failed, Succeed);
        d.tick(10_000);
        assertThat(d.created()).containsExactly("test-a");
        assertThat(d.state.status().conditions().get("test-a").message())
                .as("a new attempt, no reason yet")
                .isNull();
        d.apply(new FlowInput.JobRejected("test-a", List.of("spec.queue: queue \"q\" is closed"), 10_000));
        assertThat(d.state.phase()).isEqualTo(Failed);
        assertThat(d.state.status().jobStatusList().get(0).restartCount()).isEqualTo(1);
    }

    @Test
    void aRetriedJobThatCompletesLetsTheFlowGoOn() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                  retry: {maxRetries: 1}
                - name: b
                  dependsOn: {targets: [a]}
                """), "a", "b");
        d.job("a", JobPhase.Failed);
        assertThat(d.deleted()).containsExactly("test-a");
        assertThat(d.created()).as("no backoff: re-created at once").containsExactly("test-a");
        d.job("a", Completed);
        assertThat(d.created()).containsExactly("test-b");
        d.job("b", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
    }

    static final String BRANCHES = """
            flows:
            - name: train
            - name: report
              dependsOn: {targets: [train]}
              when: {phases: [Completed]}
            - name: publish
              dependsOn: {targets: [report]}
            - name: cleanup
              dependsOn: {targets: [train]}
              when: {phases: [Failed]}
            """;

    @Test
    void whenRunsTheSuccessBranchAndSkipsTheFailureBranch() {
        d.submit(FlowDriver.flow(BRANCHES), "train", "report", "publish", "cleanup");
        d.job("train", Completed);
        assertThat(d.created()).containsExactly("test-report");
        assertThat(d.condition("cleanup")).isEqualTo("Skipped");
        assertThat(d.last.events()).extracting(FlowEvent::reason).contains("Skipped");
        d.job("report", Completed);
        d.job("publish", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
    }

    @Test
    void whenRunsTheFailureBranchAndTheHandledFailureDoesNotFailTheFlow() {
        d.submit(FlowDriver.flow(BRANCHES), "train", "report", "publish", "cleanup");
        d.job("train", JobPhase.Failed);
        assertThat(d.created()).containsExactly("test-cleanup");
        assertThat(d.condition("report")).isEqualTo("Skipped");
        assertThat(d.condition("publish")).as("a skip propagates").isEqualTo("Skipped");
        assertThat(d.state.phase()).isEqualTo(Running);
        d.job("cleanup", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
        assertThat(d.state.status().failedJobs()).containsExactly("test-train");
    }

    static final String TWO_ROOTS = """
            flows:
            - name: a
            - name: b
            - name: c
              dependsOn: {targets: [a]}
            """;

    /** The seed's state/running.go: Failed as soon as one job is Failed, though another still runs. */
    @Test
    void anUnhandledFailureFailsTheFlowAtOnceWhileOtherJobsRun() {
        d.submit(FlowDriver.flow(TWO_ROOTS), "a", "b", "c");
        d.job("b", JobPhase.Running);
        d.job("a", JobPhase.Failed);
        assertThat(d.state.phase()).as("b still runs").isEqualTo(Failed);
        assertThat(d.last.transitions()).singleElement().satisfies(t -> {
            assertThat(t.from()).isEqualTo(Running);
            assertThat(t.message()).contains("test-a Failed");
        });
        assertThat(d.condition("c")).isEqualTo("Skipped");
        assertThat(d.state.status().runningJobs()).containsExactly("test-b");
        assertThat(d.state.status().failedJobs()).containsExactly("test-a");
        d.job("b", Completed);
        assertThat(d.state.phase()).as("Failed is final").isEqualTo(Failed);
        assertThat(d.state.status().completedJobs())
                .as("the status still follows the jobs")
                .containsExactly("test-b");
        assertThat(d.created()).as("nothing more is created").isEmpty();
    }

    @Test
    void aTerminatedJobFailsTheFlowAtOnce() {
        d.submit(FlowDriver.flow(TWO_ROOTS), "a", "b", "c");
        d.job("a", JobPhase.Running);
        d.job("b", JobPhase.Running);
        d.job("b", JobPhase.Terminating);
        assertThat(d.state.phase()).as("Terminating is not final yet").isEqualTo(Running);
        assertThat(d.state.status().terminatedJobs()).containsExactly("test-b");
        d.job("b", JobPhase.Terminated);
        assertThat(d.state.phase()).isEqualTo(Failed);
        assertThat(d.last.transitions().get(0).message()).contains("test-b Terminated");
    }

    @Test
    void aJobFailedBeforeAnyRanFailsAPendingFlow() {
        d.submit(FlowDriver.flow(TWO_ROOTS), "a", "b", "c");
        d.job("a", JobPhase.Failed);
        assertThat(d.last.transitions()).singleElement().satisfies(t -> {
            assertThat(t.from()).isEqualTo(Pending);
            assertThat(t.to()).isEqualTo(Failed);
        });
    }

    /** The seed files an Aborted job under unKnowJobs: it can be resumed, so the flow waits for it. */
    @Test
    void anAbortedJobIsUnknownAndTheFlowGoesOnWhenItIsResumed() {
        d.submit(FlowDriver.flow(TWO_ROOTS), "a", "b", "c");
        d.job("b", JobPhase.Running);
        d.job("a", JobPhase.Running);
        for (JobPhase p : List.of(JobPhase.Aborting, JobPhase.Aborted)) {
            d.job("a", p);
            assertThat(d.state.phase()).as("%s does not end the flow", p).isEqualTo(Running);
            assertThat(d.state.status().unKnowJobs()).containsExactly("test-a");
            assertThat(d.state.status().failedJobs()).isEmpty();
        }
        assertThat(d.condition("c")).as("c still waits for a").isEqualTo("Waiting");
        d.job("b", Completed);
        assertThat(d.state.phase()).as("the aborted job is not done").isEqualTo(Running);
        d.job("a", JobPhase.Running);
        assertThat(d.state.status().unKnowJobs()).isEmpty();
        d.job("a", Completed);
        assertThat(d.created()).containsExactly("test-c");
        d.job("c", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
    }

    @Test
    void aFailedJobWithRetriesLeftHasNotFailedTheFlowYet() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                  retry: {maxRetries: 1, backoff: {base: 10s}}
                - name: b
                """), "a", "b");
        d.job("b", JobPhase.Running);
        d.job("a", JobPhase.Failed);
        assertThat(d.state.phase()).isEqualTo(Running);
        assertThat(d.condition("a")).isEqualTo("Backoff");
        d.tick(10_000);
        d.job("a", JobPhase.Failed);
        assertThat(d.state.phase()).as("retries exhausted, b still runs").isEqualTo(Failed);
    }

    @Test
    void aWhenBranchOnAbortedRunsWhileTheJobIsAborted() {
        d.submit(FlowDriver.flow("""
                flows:
                - name: a
                - name: notify
                  dependsOn: {targets: [a]}
                  when: {phases: [Aborted]}
                """), "a", "notify");
        d.job("a", JobPhase.Running);
        d.job("a", JobPhase.Aborted);
        assertThat(d.created()).containsExactly("test-notify");
        d.job("notify", Completed);
        assertThat(d.state.phase()).as("a may still be resumed").isEqualTo(Running);
        d.job("a", JobPhase.Running);
        d.job("a", Completed);
        assertThat(d.state.phase()).isEqualTo(Succeed);
    }

    @Test
    void deletingTheFlowDeletesItsJobsAndLateEventsChangeNothing() {
        d.submit(FlowDriver.flow(SEED.formatted("retain")), "a", "b", "c", "d", "e");
        d.job("a", Completed);
        d.apply(new FlowInput.Delete(5));
        assertThat(d.deleted()).containsExactly("test-a", "test-b");
        assertThat(d.state.phase()).isEqualTo(Terminating);
        assertThat(d.state.deleted()).isTrue();
        FlowInfo before = d.state;
        d.job("b", Completed);
        d.tick(1_000_000);
        assertThat(d.last.actions()).isEmpty();
        assertThat(d.state.jobs()).isEqualTo(before.jobs());
    }

    @Test
    void aTemplateChangeAffectsOnlyJobsNotCreatedYet() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n- name: b\n  dependsOn: {targets: [a]}\n"), "a", "b");
        Job a = ((FlowAction.CreateJob) d.last.actions().get(0)).job();
        for (String t : List.of("a", "b")) {
            var changed = FlowDriver.template(t);
            changed = changed.withSpec(changed.spec().withQueue("other"));
            d.apply(new FlowInput.TemplateChanged(changed, 1));
            assertThat(d.created()).isEmpty();
        }
        assertThat(d.state.jobs().get("a").job()).isEqualTo(a);
        d.job("a", Completed);
        Job b = ((FlowAction.CreateJob) d.last.actions().get(0)).job();
        assertThat(b.spec().queue()).isEqualTo("other");
        assertThat(a.spec().queue()).isEqualTo("default");
    }

    @Test
    void aMissingTemplateKeepsTheEntryWaitingUntilItAppears() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n- name: b\n"), "a");
        assertThat(d.created()).containsExactly("test-a");
        assertThat(d.last.events()).extracting(FlowEvent::reason).contains("TemplateNotFound");
        d.job("a", JobPhase.Running);
        assertThat(d.last.events()).as("reported once").isEmpty();
        d.apply(new FlowInput.TemplateChanged(FlowDriver.template("b"), 2));
        assertThat(d.created()).containsExactly("test-b");
    }

    @Test
    void completedIsFinalForAJobAndHistoriesAreCapped() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n- name: b\n"), "a", "b");
        for (int i = 0; i < 40; i++) {
            d.tick(i * 1000L);
            d.job("a", i % 2 == 0 ? JobPhase.Running : JobPhase.Restarting);
        }
        FlowJob a = d.state.jobs().get("a");
        assertThat(a.runningHistories()).hasSize(FlowJob.MAX_HISTORIES);
        assertThat(a.runningHistories().get(FlowJob.MAX_HISTORIES - 1).state()).isEqualTo("Restarting");
        assertThat(d.state.status().unKnowJobs()).containsExactly("test-a");
        d.job("a", Completed);
        d.job("a", JobPhase.Running);
        assertThat(d.state.jobs().get("a").phase()).isEqualTo(Completed);
    }

    @Test
    void inputsBeforeTheSubmitAreIgnored() {
        FlowOutcome o = d.job("a", Completed);
        assertThat(o.state().phase()).isNull();
        assertThat(o.actions()).isEmpty();
    }

    @Test
    void theStateSurvivesJsonAndReplayGivesTheSameOutcomes() throws Exception {
        List<FlowInput> inputs = List.of(
                new FlowInput.Submit(
                        FlowDriver.flow("""
                        flows:
                        - name: a
                          retry: {maxRetries: 1, backoff: {base: 5s}}
                        - name: b
                          dependsOn: {targets: [a]}
                          patch: {spec: {tasks: [{name: worker, replicas: 1}]}}
                        """), List.of(FlowDriver.template("a"), FlowDriver.template("b")), 0),
                new FlowInput.JobStatusObserved("test-a", JobPhase.Failed, java.util.Map.of(), 1, 1000),
                new FlowInput.Tick(6000),
                new FlowInput.JobStatusObserved("test-a", Completed, java.util.Map.of(), 0, 7000),
                new FlowInput.JobStatusObserved("test-b", Completed, java.util.Map.of(), 0, 8000));
        var mapper = Manifests.jsonMapper();
        FlowInfo live = FlowInfo.empty();
        FlowInfo stored = FlowInfo.empty();
        JobFlowController c = new JobFlowController();
        for (FlowInput in : inputs) {
            FlowOutcome a = c.apply(live, in);
            FlowOutcome b = c.apply(stored, mapper.readValue(mapper.writeValueAsString(in), FlowInput.class));
            assertThat(mapper.writeValueAsString(b)).isEqualTo(mapper.writeValueAsString(a));
            live = a.state();
            stored = mapper.readValue(mapper.writeValueAsString(b.state()), FlowInfo.class);
        }
        assertThat(live.phase()).isEqualTo(JobFlowPhase.Succeed);
        assertThat(stored.status()).isEqualTo(live.status());
    }

    @Test
    void onlyTheFlowsOwnTemplatesAreKept() {
        d.submit(FlowDriver.flow("flows:\n- name: a\n"), "a", "unrelated");
        d.apply(new FlowInput.TemplateChanged(FlowDriver.template("other"), 1));
        assertThat(d.state.templates()).containsOnlyKeys("a");
    }
}
