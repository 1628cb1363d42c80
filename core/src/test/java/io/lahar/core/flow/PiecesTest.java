package io.lahar.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.FlowRetry;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Patch;
import io.lahar.core.sim.ScriptException;
import org.junit.jupiter.api.Test;

/** The small rules under the engine: backoff, patch merge, durations, the script parser. */
class PiecesTest {

    @Test
    void backoffDoublesFromBaseAndStopsAtCap() {
        FlowRetry r = new FlowRetry(5, new FlowRetry.Backoff("10s", "1m"));
        assertThat(Backoffs.delayMillis(r, 0)).isEqualTo(10_000);
        assertThat(Backoffs.delayMillis(r, 1)).isEqualTo(20_000);
        assertThat(Backoffs.delayMillis(r, 2)).isEqualTo(40_000);
        assertThat(Backoffs.delayMillis(r, 3)).isEqualTo(60_000);
        assertThat(Backoffs.delayMillis(r, 500)).isEqualTo(60_000);
        assertThat(Backoffs.delayMillis(new FlowRetry(1, new FlowRetry.Backoff("1h", null)), 200))
                .as("no cap: saturates instead of overflowing")
                .isPositive();
        assertThat(Backoffs.delayMillis(new FlowRetry(1, null), 3)).isZero();
        assertThat(Backoffs.maxRetries(null)).isZero();
    }

    static ObjectNode tree(String yaml) throws Exception {
        return (ObjectNode) Manifests.yamlMapper().readTree(yaml);
    }

    @Test
    void patchNullRemovesAFieldAndOtherListsAreReplaced() throws Exception {
        JobSpec spec = FlowDriver.template("a").spec();
        JobSpec patched = JobPatches.apply(spec, new Patch(tree("""
                minAvailable: null
                tasks:
                - name: worker
                  template:
                    spec:
                      containers:
                      - name: main
                        command: [echo]
                """)));
        assertThat(patched.minAvailable()).isNull();
        assertThat(patched.tasks()
                        .get(0)
                        .template()
                        .at("/spec/containers/0/command")
                        .size())
                .isEqualTo(1);
        assertThat(patched.tasks().get(0).replicas()).isEqualTo(2);
        assertThat(JobPatches.apply(spec, null)).isSameAs(spec);
    }

    @Test
    void aPatchOfTheWrongTypeIsAnErrorNotACrash() throws Exception {
        JobSpec spec = FlowDriver.template("a").spec();
        assertThatThrownBy(() -> JobPatches.apply(spec, new Patch(tree("minAvailable: {a: 1}"))))
                .isInstanceOf(ManifestException.class);
    }

    @Test
    void durationsPrintAsGo() {
        assertThat(FlowJobs.goDuration(0)).isEqualTo("0s");
        assertThat(FlowJobs.goDuration(1500)).isEqualTo("1.5s");
        assertThat(FlowJobs.goDuration(90_000)).isEqualTo("1m30s");
        assertThat(FlowJobs.goDuration(3_600_000 + 2_000)).isEqualTo("1h0m2s");
    }

    @Test
    void theScriptReadsEveryStepKind() {
        var steps = FlowScript.parse("""
                {"job":"b","phase":"Completed"}
                {"job":"b","task":"worker","phase":"Running"}

                {"command":"delete"}
                {"advance":"1m"}
                {"template":{"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobTemplate","metadata":{"name":"b"},"spec":{"tasks":[]}}}
                """);
        assertThat(steps).hasSize(5);
        assertThat(steps.get(0)).isEqualTo(new FlowStep.JobPhaseStep(1, "b", JobPhase.Completed));
        assertThat(steps.get(1)).isInstanceOf(FlowStep.TaskPhaseStep.class);
        assertThat(steps.get(2).line()).isEqualTo(4);
        assertThat(((FlowStep.AdvanceStep) steps.get(3)).by()).hasMinutes(1);
        assertThat(steps.get(4)).isInstanceOf(FlowStep.TemplateStep.class);
    }

    @Test
    void scriptErrorsNameTheLineAndField() {
        assertThatThrownBy(() -> FlowScript.parse("{\"job\":\"b\",\"phase\":\"Done\"}"))
                .isInstanceOf(ScriptException.class)
                .hasMessageContaining("line 1: phase: expected one of");
        assertThatThrownBy(() -> FlowScript.parse("\n{\"job\":\"b\",\"task\":\"w\",\"phase\":\"Completed\"}"))
                .hasMessageContaining("line 2: phase: a task's pods are one of");
        assertThatThrownBy(() -> FlowScript.parse("{\"command\":\"abort\"}")).hasMessageContaining("command:");
        assertThatThrownBy(() -> FlowScript.parse("{\"job\":\"b\",\"phase\":\"Running\",\"x\":1}"))
                .hasMessageContaining("x: unknown field");
        assertThatThrownBy(() -> FlowScript.parse("[1]")).hasMessageContaining("JSON object");
        assertThatThrownBy(() -> FlowScript.parse("{\"pod\":{}}")).hasMessageContaining("no step kind");
    }

    @Test
    void simulationIgnoresStepsForJobsThatDoNotExist() {
        FlowSimulation sim = new FlowSimulation(
                FlowDriver.flow("flows:\n- name: a\n- name: b\n  dependsOn: {targets: [a]}\n"),
                java.util.List.of(FlowDriver.template("a"), FlowDriver.template("b")));
        assertThat(sim.start().created()).containsExactly("test-a");
        assertThat(sim.run(1, new FlowStep.JobPhaseStep(1, "b", JobPhase.Running))
                        .ignored())
                .contains("does not exist");
        assertThat(sim.run(2, new FlowStep.JobPhaseStep(2, "zz", JobPhase.Running))
                        .ignored())
                .contains("no flow entry");
        assertThat(sim.run(3, new FlowStep.TaskPhaseStep(3, "a", "nope", io.lahar.core.job.PodPhase.Running))
                        .ignored())
                .contains("has no task nope");
        FlowStepReport r = sim.run(4, new FlowStep.JobPhaseStep(4, "a", JobPhase.Completed));
        assertThat(r.created()).containsExactly("test-a", "test-b");
        assertThat(r.jobs()).containsEntry("test-a", "Completed").containsEntry("test-b", "Pending");
        FlowStepReport del = sim.run(5, new FlowStep.DeleteStep(5));
        assertThat(del.deleted()).containsExactly("test-a", "test-b");
        assertThat(del.phase()).isEqualTo("Terminating");
        assertThat(del.created()).isEmpty();
    }
}
