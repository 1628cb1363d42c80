package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.ONE_TASK;
import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.flow;
import static io.lahar.core.admission.Fixtures.messages;
import static io.lahar.core.admission.Fixtures.task;
import static io.lahar.core.admission.Fixtures.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.DependsOn;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobFlowAdmissionTest {

    static final AdmissionContext FRESH = AdmissionContext.freshInstall();

    static AdmissionResult<JobFlow> admit(JobFlow f) {
        return JobFlowAdmission.create(f, FRESH);
    }

    @Test
    void theSeedDagIsAcceptedWithDefaults() throws IOException {
        JobFlow f = Manifests.read(Files.readString(Path.of("..", "examples", "jobflow.yaml")), JobFlow.class);
        JobFlow admitted = assertAccepted(admit(f));
        assertThat(admitted.spec().jobRetainPolicy()).isEqualTo("delete");
        assertThat(admitted.spec().flows().get(4).dependsOn().strategy()).isEqualTo(DependsOn.ALL);
        assertThat(admitted.spec().flows().get(0).dependsOn()).isNull();
    }

    @Test
    void jobRetainPolicyDefaultsToRetain() {
        assertThat(assertAccepted(admit(flow("f", "flows:\n- name: a\n")))
                        .spec()
                        .jobRetainPolicy())
                .isEqualTo("retain");
        assertRejected(
                admit(flow("f", "jobRetainPolicy: keep\nflows:\n- name: a\n")),
                "spec.jobRetainPolicy: unsupported value \"keep\": supported values: \"retain\", \"delete\"");
    }

    @Test
    void duplicateFlowName() {
        assertRejected(
                admit(flow("f", "flows:\n- name: a\n- name: b\n  dependsOn: {targets: [a]}\n- name: a\n")),
                "spec.flows[2].name: duplicate flow name \"a\"");
    }

    @Test
    void cycleIsRejectedAndSpelledOut() {
        // A -> B -> C -> D -> B
        AdmissionResult<JobFlow> r = admit(flow("f", """
                flows:
                - name: a
                - name: b
                  dependsOn: {targets: [a, d]}
                - name: c
                  dependsOn: {targets: [b]}
                - name: d
                  dependsOn: {targets: [c]}
                """));
        assertThat(messages(r))
                .containsExactly(
                        "spec.flows: jobflow flows do not form a directed acyclic graph (DAG): b -> c -> d -> b");
    }

    @Test
    void selfDependencyIsACycle() {
        assertRejected(
                admit(flow("f", "flows:\n- name: a\n  dependsOn: {targets: [a]}\n")),
                "spec.flows: jobflow flows do not form a directed acyclic graph (DAG): a -> a");
    }

    @Test
    void targetsMustNameFlowsOfThisFlow() {
        assertRejected(
                admit(flow("f", "flows:\n- name: a\n  dependsOn: {targets: [x]}\n")),
                "spec.flows[0].dependsOn.targets[0]: flow \"x\" not found in this jobflow");
    }

    @Test
    void strategyAndProbes() {
        AdmissionResult<JobFlow> r = admit(flow("f", """
                flows:
                - name: a
                - name: b
                  dependsOn:
                    targets: [a]
                    strategy: most
                    probe:
                      httpGetList: [{taskName: web, path: /healthz, port: 0}]
                      tcpSocketList: [{port: 22}]
                      taskStatusList: [{taskName: web}]
                """));
        assertThat(messages(r))
                .containsExactly(
                        "spec.flows[1].dependsOn.strategy: unsupported value \"most\": supported values: \"all\", \"any\"",
                        "spec.flows[1].dependsOn.probe.httpGetList[0].port: must be between 1 and 65535, inclusive",
                        "spec.flows[1].dependsOn.probe.tcpSocketList[0].taskName: required",
                        "spec.flows[1].dependsOn.probe.taskStatusList[0].phase: required");
    }

    @Test
    void laharRetryAndWhen() {
        JobFlow ok = assertAccepted(admit(flow("f", """
                flows:
                - name: a
                  retry: {maxRetries: 2, backoff: {base: 10s, cap: 5m}}
                - name: cleanup
                  dependsOn: {targets: [a]}
                  when: {phases: [Failed]}
                """)));
        assertThat(ok.spec().flows().get(0).retry().maxRetries()).isEqualTo(2);
        assertThat(ok.spec().flows().get(1).when().phases()).containsExactly("Failed");
        AdmissionResult<JobFlow> r = admit(flow("f", """
                flows:
                - name: a
                  retry: {maxRetries: -1, backoff: {base: 1m, cap: 10s}}
                  when: {phases: [Running]}
                """));
        assertThat(messages(r))
                .containsExactly(
                        "spec.flows[0].retry.maxRetries: must be >= 0",
                        "spec.flows[0].retry.backoff.cap: must not be less than base (1m)",
                        "spec.flows[0].when.phases[0]: unsupported value \"Running\": supported values: \"Completed\", \"Failed\", \"Terminated\", \"Aborted\"",
                        "spec.flows[0].when: requires dependsOn.targets: it is a condition on the targets' phases");
        assertRejected(
                admit(flow("f", "flows:\n- name: a\n  retry: {maxRetries: 1, backoff: {base: soon}}\n")),
                "spec.flows[0].retry.backoff.base: invalid duration \"soon\" (e.g. \"10s\", \"5m\")");
    }

    @Test
    void patchTasksAreMatchedByName() {
        assertRejected(
                admit(flow("f", "flows:\n- name: a\n  patch: {spec: {tasks: [{replicas: 2}]}}\n")),
                "spec.flows[0].patch.spec.tasks[0].name: required: patched tasks are matched to the template's by name");
    }

    @Test
    void updatesAreNotSupported() {
        JobFlow f = flow("f", "flows:\n- name: a\n");
        JobFlow changed = flow("f", "flows:\n- name: a\n- name: b\n");
        assertRejected(JobFlowAdmission.update(f, changed, FRESH), "spec: jobflow updates are not supported");
        // Only the spec is the flow's program: a label, or the same spec applied again, is accepted.
        assertAccepted(JobFlowAdmission.update(f, f, FRESH));
        JobFlow labelled = new JobFlow(
                f.apiVersion(),
                f.kind(),
                f.metadata().withLabels(java.util.Map.of("team", "ml")),
                f.spec(),
                f.status());
        assertAccepted(JobFlowAdmission.update(f, labelled, FRESH));
    }

    @Test
    void anUnfinishedFlowCanNotBeDeleted() {
        JobFlow running = flow("f", "flows:\n- name: a\n").withStatus(status(JobFlowPhase.Running));
        assertRejected(
                JobFlowAdmission.delete(running, FRESH),
                "metadata.name: jobflow \"f\" is not finished (phase Running) and can not be deleted");
        assertAccepted(JobFlowAdmission.delete(running.withStatus(status(JobFlowPhase.Succeed)), FRESH));
    }

    @Test
    void aTemplateUsedByAnUnfinishedFlowCanNotBeDeleted() {
        JobTemplate a = template("a", ONE_TASK);
        JobFlow pending = flow("f", "flows:\n- name: a\n");
        AdmissionContext ctx = FRESH.with(a).with(pending);
        assertRejected(
                JobTemplateAdmission.delete(a, ctx),
                "metadata.name: jobtemplate \"a\" is used by unfinished jobflow \"f\" (phase Pending) and can not be deleted");
        AdmissionContext done = FRESH.with(a).with(pending.withStatus(status(JobFlowPhase.Failed)));
        assertAccepted(JobTemplateAdmission.delete(a, done));
    }

    @Test
    void templatesAreValidatedLikeJobsButStoredAsWritten() {
        assertRejected(
                JobTemplateAdmission.create(template("t", "tasks:\n" + task("w", 1) + task("w", 1)), FRESH),
                "spec.tasks[1].name: duplicate task name \"w\"");
        JobTemplate t = assertAccepted(JobTemplateAdmission.create(template("t", ONE_TASK), FRESH));
        assertThat(t.spec().queue()).isNull();
    }

    static JobFlow.JobFlowStatus status(JobFlowPhase phase) {
        return new JobFlow.JobFlowStatus(
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                null,
                new JobFlow.State(phase));
    }
}
