package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertThat(fields)
                .startsWith(
                        "step",
                        "phase",
                        "version",
                        "retryCount",
                        "pending",
                        "running",
                        "succeeded",
                        "failed",
                        "terminating",
                        "unknown",
                        "reason",
                        "message",
                        "transitions",
                        "pods");
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
        assertThat(simulate(job, "", "--existing", q1.toString(), q2.toString()))
                .isZero();
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
        assertThat(l.get(1).path("actions").toString())
                .contains(
                        "DeletePod tf-job-worker-1", "DeletePodGroup tf-job", "CreatePod tf-job-worker-1 (version 1)");
    }

    private static final String FRAMEWORK_JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: %s}
            spec:
              plugins: {%s}
              tasks:
              - {name: %s, replicas: 1, template: {spec: {containers: [{name: %s, image: img}]}}}
              - {name: worker, replicas: 2, template: {spec: {containers: [{name: worker, image: img}]}}}
            """;

    /** The CreatePod intent of {@code pod} in step 0, with its template parsed. */
    private JsonNode createPod(String pod) throws Exception {
        for (JsonNode i : lines().get(0).path("intents")) {
            if (i.path("CreatePod").path("pod").asText().equals(pod)) {
                return i.path("CreatePod");
            }
        }
        throw new AssertionError(pod + " not among " + lines().get(0).path("intents"));
    }

    private static Map<String, String> env(JsonNode createPod) {
        Map<String, String> env = new LinkedHashMap<>();
        createPod
                .at("/template/spec/containers/0/env")
                .forEach(e -> env.put(
                        e.path("name").asText(),
                        e.has("value")
                                ? e.path("value").asText()
                                : "from "
                                        + e.at("/valueFrom/configMapKeyRef/name")
                                                .asText()));
        return env;
    }

    /** One pod's environment per framework plugin, as the pod intents on lahar.pod-intents carry it. */
    @Test
    void intentsShowWhatEachFrameworkPluginGaveAPod() throws Exception {
        assertThat(simulate(FRAMEWORK_JOB.formatted("ddp", "pytorch: []", "master", "master"), "", "--intents"))
                .isZero();
        JsonNode worker = createPod("ddp-worker-1");
        assertThat(env(worker))
                .containsEntry("MASTER_ADDR", "ddp-master-0.ddp")
                .containsEntry("MASTER_PORT", "23456")
                .containsEntry("WORLD_SIZE", "3")
                .containsEntry("RANK", "2");
        assertThat(worker.at("/template/spec/containers/0/ports/0/name").asText())
                .isEqualTo("pytorchjob-port");

        out.getBuffer().setLength(0);
        assertThat(simulate(FRAMEWORK_JOB.formatted("mnist", "tensorflow: [--port=5000]", "ps", "ps"), "", "--intents"))
                .isZero();
        assertThat(env(createPod("mnist-worker-0")))
                .containsEntry(
                        "TF_CONFIG",
                        "{\"cluster\":{\"ps\":[\"mnist-ps-0.mnist:5000\"],"
                                + "\"worker\":[\"mnist-worker-0.mnist:5000\",\"mnist-worker-1.mnist:5000\"]},\"task\":{\"type\":\"worker\",\"index\":0}}");

        out.getBuffer().setLength(0);
        assertThat(simulate(FRAMEWORK_JOB.formatted("rc", "ray: []", "head", "head"), "", "--intents"))
                .isZero();
        assertThat(createPod("rc-worker-1")
                        .at("/template/spec/containers/0/command/2")
                        .asText())
                .isEqualTo("ray start --block --address=rc-head-0.rc:6379");
        assertThat(createPod("rc-head-0")
                        .at("/template/spec/containers/0/ports")
                        .findValuesAsText("name"))
                .containsExactly("gcs", "dashboard", "client-server");
        assertThat(lines().get(0).path("intents").findValues("EnsureService"))
                .extracting(s -> s.path("name").asText())
                .contains("rc-head-svc");

        out.getBuffer().setLength(0);
        assertThat(simulate(
                        FRAMEWORK_JOB.formatted("npu", "pytorch: [], hcclrank: []", "master", "master"),
                        "",
                        "--intents"))
                .isZero();
        assertThat(createPod("npu-worker-0")
                        .path("annotations")
                        .path("hccl/rankIndex")
                        .asText())
                .isEqualTo("1");
    }

    @Test
    void intentsShowTheSvcPluginsNetworkPolicyAndTheClaimsOfInlineVolumes() throws Exception {
        String job = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: data}
                spec:
                  plugins: {svc: []}
                  volumes:
                  - mountPath: /data
                    volumeClaim: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                  tasks:
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: worker, image: img}]}}}
                """;
        assertThat(simulate(job, "", "--intents")).isZero();

        JsonNode intents = lines().get(0).path("intents");
        assertThat(intents.findValues("notInContract")).isEmpty();
        JsonNode policy = intents.findValue("EnsureNetworkPolicy");
        assertThat(policy.path("name").asText()).isEqualTo("data");
        assertThat(policy.path("podSelector").path("volcano.sh/job-name").asText())
                .isEqualTo("data");
        assertThat(policy.path("ingressFrom").get(0).path("volcano.sh/job-name").asText())
                .isEqualTo("data");
        assertThat(policy.path("policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        JsonNode claim = intents.findValue("EnsurePersistentVolumeClaim");
        assertThat(claim.path("name").asText()).isEqualTo("data-volume-0");
        assertThat(claim.path("spec").asText()).contains("\"storage\":\"1Gi\"");
        assertThat(createPod("data-worker-0").at("/template/spec/volumes").findValuesAsText("claimName"))
                .containsExactly("data-volume-0");
    }

    /** The seed's TensorFlow example as the project ships it (with the tensorflow plugin): TF_CONFIG beside env's and svc's. */
    @Test
    void theTensorflowExamplesPodsGetTfConfig() throws Exception {
        Path example = Path.of("..", "examples", "tf-dist-mnist.yaml");
        assertThat(simulate(Files.readString(example), "", "--intents")).isZero();
        assertThat(env(createPod("tf-dist-mnist-ps-0")))
                .containsOnlyKeys(
                        "VK_TASK_INDEX",
                        "VC_TASK_INDEX",
                        "VC_PS_HOSTS",
                        "VC_PS_NUM",
                        "VC_WORKER_HOSTS",
                        "VC_WORKER_NUM",
                        "TF_CONFIG")
                .containsEntry(
                        "TF_CONFIG",
                        "{\"cluster\":{\"ps\":[\"tf-dist-mnist-ps-0.tf-dist-mnist:2222\"],\"worker\":[\"tf-dist-mnist-worker-0.tf-dist-mnist:2222\","
                                + "\"tf-dist-mnist-worker-1.tf-dist-mnist:2222\"]},\"task\":{\"type\":\"ps\",\"index\":0}}");
    }

    @Test
    void aBadFrameworkPluginArgumentIsRejectedWithItsPath() throws Exception {
        assertThat(simulate(FRAMEWORK_JOB.formatted("ddp", "pytorch: [--port, x]", "master", "master"), ""))
                .isEqualTo(1);
        assertThat(err.toString())
                .contains("error: spec.plugins.pytorch: invalid value \"x\" for flag -port: parse error");
    }
}
