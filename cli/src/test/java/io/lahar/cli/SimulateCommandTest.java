package io.lahar.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SimulateCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: tf-job
            spec:
              policies:
              - event: PodFailed
                action: RestartJob
              tasks:
              - name: ps
                replicas: 1
                template: {spec: {containers: [{name: ps, image: ps-img}]}}
              - name: worker
                replicas: 2
                template: {spec: {containers: [{name: worker, image: worker-img}]}}
            """;

    private int simulate(String job, String script, String... extra) throws Exception {
        Path j = dir.resolve("job.yaml");
        Path s = dir.resolve("script.jsonl");
        Files.writeString(j, job);
        Files.writeString(s, script);
        String[] args = new String[5 + extra.length];
        args[0] = "simulate";
        args[1] = "-f";
        args[2] = j.toString();
        args[3] = "--events";
        args[4] = s.toString();
        System.arraycopy(extra, 0, args, 5, extra.length);
        return Lahar.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    private List<JsonNode> lines() throws Exception {
        return JsonLines.of(out.toString());
    }

    @Test
    void printsStepZeroThenOneLinePerStep() throws Exception {
        int code = simulate(JOB, """
                {"pod":{"task":"ps","index":0,"phase":"Running"}}
                {"pod":{"task":"worker","index":0,"phase":"Running"}}
                {"pod":{"task":"worker","index":1,"phase":"Running"}}

                {"pod":{"task":"worker","index":1,"phase":"Failed","exitCode":137}}
                """);
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(l).hasSize(5);
        assertThat(l.get(0).path("step").asInt()).isZero();
        assertThat(l.get(3).path("phase").asText()).isEqualTo("Running");
        assertThat(l.get(3).path("transitions").get(0).asText()).isEqualTo("Running");
        JsonNode last = l.get(4);
        assertThat(last.path("version").asInt()).isEqualTo(1);
        assertThat(last.path("retryCount").asInt()).isEqualTo(1);
        assertThat(last.path("pods").path("worker-1").asText()).isEqualTo("Pending");
        assertThat(last.path("message").asText()).contains("PodFailed: pod tf-job-worker-1 exited 137 -> RestartJob");
        List<String> fields = new java.util.ArrayList<>();
        last.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).startsWith("step", "phase", "version", "retryCount", "pending", "running", "succeeded",
                "failed", "terminating", "unknown", "reason", "message", "transitions", "pods");
    }

    @Test
    void aBadScriptLineExitsTwoNamingTheLine() throws Exception {
        int code = simulate(JOB, """
                {"advance":"30s"}
                {"pod":{"task":"worker","index":0,"phase":"Sleeping"}}
                """);
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("line 2").contains("pod.phase");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aRejectedJobExitsOneWithTheAdmissionErrors() throws Exception {
        int code = simulate(JOB.replace("name: worker\n", "name: ps\n"), "{\"advance\":\"1s\"}\n");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).startsWith("error: spec.tasks");
    }

    @Test
    void manualModeWaitsForThePodGroup() throws Exception {
        int code = simulate(JOB, """
                {"podgroup":"Inqueue"}
                """, "--manual");
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(l.get(0).path("pods").size()).isZero();
        assertThat(l.get(1).path("pods").size()).isEqualTo(3);
    }
    @Test
    void existingQueuesDecideWhereAJobMayGo() throws Exception {
        Path q1 = dir.resolve("q1.yaml");
        Path q2 = dir.resolve("q2.yaml");
        Files.writeString(q1, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                spec: {weight: 1}
                """);
        Files.writeString(q2, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: prod}
                spec: {weight: 1}
                """);
        String job = JOB.replace("spec:\n  policies:", "spec:\n  queue: prod\n  policies:");
        assertThat(simulate(job, "", "--existing", q1.toString(), q2.toString())).isZero();
        assertThat(lines().get(0).path("phase").asText()).isEqualTo("Pending");
        out.getBuffer().setLength(0);
        assertThat(simulate(job, "", "--existing", q1.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("spec.queue");
    }
    @Test
    void aQueueBesideTheJobExistsBeforeIt() throws Exception {
        String both = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: prod}
                spec: {weight: 1}
                ---
                """ + JOB.replace("spec:\n  policies:", "spec:\n  queue: prod\n  policies:");
        assertThat(simulate(both, "")).isZero();
        assertThat(simulate(JOB + "---\n" + JOB, "")).isEqualTo(2);
        assertThat(err.toString()).contains("expected exactly one Job");
    }
    @Test
    void actionsShowWhatTheEngineAskedOfTheWorld() throws Exception {
        assertThat(simulate(JOB, "{\"command\":\"RestartJob\"}\n", "--actions")).isZero();
        List<JsonNode> l = lines();
        assertThat(l.get(0).path("actions").toString()).contains("UpsertPodGroup tf-job", "CreatePod tf-job-ps-0");
        assertThat(l.get(1).path("actions").toString()).contains("DeletePod tf-job-worker-1", "DeletePodGroup tf-job",
                "CreatePod tf-job-worker-1 (version 1)");
    }
}
