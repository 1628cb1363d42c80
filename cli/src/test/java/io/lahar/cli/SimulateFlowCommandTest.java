package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lahar simulate} with JobTemplates and a JobFlow: admission, the flow engine, one line per step. */
class SimulateFlowCommandTest {

    static final Path TEMPLATES = Path.of("..", "examples", "jobflow-templates.yaml");
    static final Path SEED_FLOW = Path.of("..", "examples", "jobflow.yaml");

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int simulate(String script, Path... files) throws Exception {
        Path s = dir.resolve("script.jsonl");
        Files.writeString(s, script);
        List<String> args = new ArrayList<>(List.of("simulate"));
        for (Path f : files) {
            args.add("-f");
            args.add(f.toString());
        }
        args.add("--events");
        args.add(s.toString());
        return Lahar.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    }

    private Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private List<JsonNode> lines() {
        return JsonLines.of(out.toString());
    }

    private static List<String> strings(JsonNode array) {
        return JsonLines.strings(array);
    }

    @Test
    void theSeedDagRunsCAndDInParallelThenEThenSucceedsAndDeletesItsJobs() throws Exception {
        int code = simulate("""
                {"job":"a","phase":"Running"}
                {"job":"a","phase":"Completed"}
                {"job":"b","phase":"Completed"}
                {"job":"c","phase":"Running"}
                {"job":"d","phase":"Running"}
                {"job":"c","phase":"Completed"}
                {"job":"d","phase":"Completed"}
                {"job":"e","phase":"Completed"}
                """, TEMPLATES, SEED_FLOW);
        assertThat(err.toString()).isEmpty();
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(l).hasSize(9);
        assertThat(l.get(0).path("step").asInt()).isZero();
        assertThat(l.get(0).path("phase").asText()).isEqualTo("Pending");
        assertThat(strings(l.get(0).path("created"))).containsExactly("test-a");
        assertThat(l.get(0).at("/status/conditions/test-b/phase").asText()).isEqualTo("Waiting");
        assertThat(l.get(1).path("phase").asText()).isEqualTo("Running");
        assertThat(strings(l.get(3).path("created"))).containsExactly("test-a", "test-b", "test-c", "test-d");
        assertThat(l.get(5).path("jobs").path("test-c").asText()).isEqualTo("Running");
        assertThat(l.get(5).path("jobs").path("test-d").asText())
                .as("c and d run in parallel")
                .isEqualTo("Running");
        assertThat(strings(l.get(6).path("created"))).as("e waits for d").doesNotContain("test-e");
        assertThat(strings(l.get(7).path("created"))).contains("test-e");
        JsonNode last = l.get(8);
        assertThat(last.path("phase").asText()).isEqualTo("Succeed");
        assertThat(strings(last.path("created"))).isEmpty();
        assertThat(strings(last.path("deleted"))).containsExactly("test-a", "test-b", "test-c", "test-d", "test-e");
        JsonNode status = last.path("status");
        for (String f : List.of(
                "pendingJobs",
                "runningJobs",
                "completedJobs",
                "failedJobs",
                "terminatedJobs",
                "unKnowJobs",
                "jobStatusList",
                "conditions",
                "state")) {
            assertThat(status.has(f)).as(f).isTrue();
        }
        assertThat(strings(status.path("completedJobs"))).hasSize(5);
        assertThat(status.at("/state/phase").asText()).isEqualTo("Succeed");
        assertThat(status.at("/jobStatusList/0/runningHistories").size()).isEqualTo(3);
    }

    @Test
    void aTaskStatusProbeStepStartsTheDependentJob() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: probe}
                spec:
                  flows:
                  - name: a
                  - name: b
                    dependsOn:
                      targets: [a]
                      probe: {taskStatusList: [{taskName: default-nginx, phase: Running}]}
                """);
        int code = simulate("""
                {"job":"a","task":"default-nginx","phase":"Running"}
                """, TEMPLATES, flow);
        assertThat(code).isZero();
        assertThat(strings(lines().get(1).path("created"))).containsExactly("probe-a", "probe-b");
    }

    @Test
    void retryAndBackoffWithAdvanceSteps() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: r}
                spec:
                  flows:
                  - name: a
                    retry: {maxRetries: 1, backoff: {base: 30s, cap: 1m}}
                """);
        int code = simulate("""
                {"job":"a","phase":"Failed"}
                {"advance":"29s"}
                {"advance":"1s"}
                {"job":"a","phase":"Failed"}
                """, TEMPLATES, flow);
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(strings(l.get(1).path("deleted"))).containsExactly("r-a");
        assertThat(l.get(1).at("/status/conditions/r-a/phase").asText()).isEqualTo("Backoff");
        assertThat(strings(l.get(2).path("created"))).isEmpty();
        assertThat(strings(l.get(3).path("created"))).containsExactly("r-a");
        assertThat(l.get(4).path("phase").asText()).isEqualTo("Failed");
        assertThat(l.get(4).at("/status/jobStatusList/0/restartCount").asInt()).isEqualTo(1);
    }

    /** The seed's running state: one Failed job fails the flow at once; an Aborted one is unknown. */
    @Test
    void aFailedJobFailsTheFlowAtOnceAndAnAbortedOneIsUnknown() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: f}
                spec:
                  flows:
                  - name: a
                  - name: b
                """);
        int code = simulate("""
                {"job":"a","phase":"Running"}
                {"job":"b","phase":"Aborted"}
                {"job":"b","phase":"Running"}
                {"job":"a","phase":"Failed"}
                """, TEMPLATES, flow);
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(l.get(2).path("phase").asText()).isEqualTo("Running");
        assertThat(strings(l.get(2).at("/status/unKnowJobs"))).containsExactly("f-b");
        assertThat(l.get(4).path("phase").asText()).as("b still runs").isEqualTo("Failed");
        assertThat(strings(l.get(4).at("/status/runningJobs"))).containsExactly("f-b");
        assertThat(strings(l.get(4).at("/status/failedJobs"))).containsExactly("f-a");
    }

    @Test
    void deleteCommandTerminatesTheFlow() throws Exception {
        int code = simulate("""
                {"job":"a","phase":"Completed"}
                {"command":"delete"}
                """, TEMPLATES, SEED_FLOW);
        assertThat(code).isZero();
        JsonNode last = lines().get(2);
        assertThat(last.path("phase").asText()).isEqualTo("Terminating");
        assertThat(strings(last.path("deleted"))).containsExactly("test-a", "test-b");
    }

    @Test
    void aCycleAndAMissingTargetAreRejected() throws Exception {
        int code = simulate("", TEMPLATES, Path.of("..", "examples", "invalid-jobflow-cycle.yaml"));
        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString())
                .contains("spec.flows: jobflow flows do not form a directed acyclic graph (DAG)")
                .contains("spec.flows[4].dependsOn.targets[0]: flow \"x\" not found in this jobflow")
                .contains("[JobFlow cyclic]");
    }

    @Test
    void aDuplicateFlowNameIsRejected() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: dup}
                spec:
                  flows:
                  - name: a
                  - name: a
                """);
        assertThat(simulate("", TEMPLATES, flow)).isEqualTo(1);
        assertThat(err.toString()).contains("error: spec.flows[1].name: duplicate flow name \"a\"");
    }

    @Test
    void aFlowWithoutItsTemplateIsRejected() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: lone}
                spec:
                  flows:
                  - name: nowhere
                """);
        assertThat(simulate("", TEMPLATES, flow)).isEqualTo(1);
        assertThat(err.toString()).contains("spec.flows[0].name: JobTemplate \"nowhere\" not found");
    }

    @Test
    void twoFlowsOrABadStepAreInputErrors() throws Exception {
        assertThat(simulate("", TEMPLATES, SEED_FLOW, SEED_FLOW)).isEqualTo(2);
        assertThat(err.toString()).contains("expected JobTemplates and exactly one JobFlow");
        err.getBuffer().setLength(0);
        assertThat(simulate("{\"job\":\"a\",\"phase\":\"Done\"}", TEMPLATES, SEED_FLOW))
                .isEqualTo(2);
        assertThat(err.toString()).contains("line 1: phase: expected one of");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void whenBranchesRunTheCleanupOnFailureAndShowTheOtherBranchSkipped() throws Exception {
        Path flow = file("flow.yaml", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: w}
                spec:
                  flows:
                  - name: a
                  - name: b
                    dependsOn: {targets: [a]}
                    when: {phases: [Completed]}
                  - name: c
                    dependsOn: {targets: [a]}
                    when: {phases: [Failed]}
                """);
        int code = simulate("""
                {"job":"a","phase":"Failed"}
                {"job":"c","phase":"Completed"}
                """, TEMPLATES, flow);
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(strings(l.get(1).path("created"))).containsExactly("w-a", "w-c");
        assertThat(l.get(1).at("/status/conditions/w-b/phase").asText()).isEqualTo("Skipped");
        assertThat(l.get(2).path("phase").asText())
                .as("the failure had its branch")
                .isEqualTo("Succeed");
    }
}
