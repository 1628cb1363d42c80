package io.lahar.core.job.plugins;

import static io.lahar.core.job.plugins.FrameworkPods.env;
import static io.lahar.core.job.plugins.FrameworkPods.job;
import static io.lahar.core.job.plugins.FrameworkPods.pod;
import static io.lahar.core.job.plugins.FrameworkPods.ports;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Volcano's pytorch_test.go, table by table, then what Lahar's admission adds. */
class PytorchPluginTest {

    private static final String ADDR = "MASTER_ADDR=test-pytorch-master-0.test-pytorch";
    private static final String PORT = "MASTER_PORT=23456";

    /** Volcano's TestPytorchPodEnvAndPort: name, job, pod (name, task, containers), first port (-1: none), env. */
    static Stream<Arguments> podEnvAndPort() {
        Job masterWorker = job("test-pytorch", "master:1", "worker:1");
        Job withExtra = job("test-pytorch", "master:1", "worker:2", "extra:2");
        return Stream.of(
                Arguments.of(
                        "test pod without master",
                        job("test-pytorch", "worker:1"),
                        pod("test-pytorch-worker-0", "default", "[{\"name\":\"worker\"}]"),
                        0,
                        -1,
                        List.of()),
                Arguments.of(
                        "test master pod without port",
                        masterWorker,
                        pod("test-pytorch-master-0", "master", "[{\"name\":\"master\"}]"),
                        0,
                        23456,
                        List.of(ADDR, PORT, "WORLD_SIZE=2", "RANK=0")),
                Arguments.of(
                        "test master pod with port",
                        masterWorker,
                        pod(
                                "test-pytorch-master-0",
                                "master",
                                "[{\"name\":\"master\",\"ports\":[{\"name\":\"pytorchjob-port\",\"containerPort\":23456}]}]"),
                        0,
                        23456,
                        List.of(ADDR, PORT, "WORLD_SIZE=2", "RANK=0")),
                Arguments.of(
                        "test master pod env",
                        withExtra,
                        pod(
                                "test-pytorch-master-0",
                                "master",
                                "[{\"name\":\"master\",\"ports\":[{\"name\":\"pytorchjob-port\",\"containerPort\":123}]}]"),
                        0,
                        123,
                        List.of(ADDR, PORT, "WORLD_SIZE=3", "RANK=0")),
                Arguments.of(
                        "test worker-1 pod env",
                        withExtra,
                        pod(
                                "test-pytorch-worker-0",
                                "worker",
                                "[{\"name\":\"worker\",\"ports\":[{\"name\":\"pytorchjob-port\",\"containerPort\":123}]}]"),
                        0,
                        123,
                        List.of(ADDR, PORT, "WORLD_SIZE=3", "RANK=1")),
                Arguments.of(
                        "test worker-2 pod env",
                        withExtra,
                        pod(
                                "test-pytorch-worker-1",
                                "worker",
                                "[{\"name\":\"worker\",\"ports\":[{\"name\":\"pytorchjob-port\",\"containerPort\":123}]}]"),
                        1,
                        123,
                        List.of(ADDR, PORT, "WORLD_SIZE=3", "RANK=2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void podEnvAndPort(String name, Job job, ObjectNode pod, int index, int port, List<String> env) {
        String task = pod.path("metadata")
                .path("annotations")
                .path(PodLabels.TASK_SPEC)
                .asText();
        new PytorchPlugin(List.of()).onPodCreate(pod, job, task, index);
        if (port == -1) {
            assertThat(ports(pod)).isEmpty();
        } else {
            assertThat(ports(pod).get(0)).isEqualTo(port);
        }
        assertThat(env(pod)).containsExactlyElementsOf(env);
    }

    @Test
    void aPortGivenUnderItsNumberIsNotOpenedTwiceAndAnotherIsAddedBesideIt() {
        ObjectNode same = pod(
                "test-pytorch-master-0",
                "master",
                "[{\"name\":\"master\",\"ports\":[{\"name\":\"pytorchjob-port\",\"containerPort\":23456}]}]");
        ObjectNode other = pod(
                "test-pytorch-master-0",
                "master",
                "[{\"name\":\"master\",\"ports\":[{\"name\":\"http\",\"containerPort\":123}]}]");
        Job job = job("test-pytorch", "master:1", "worker:1");
        new PytorchPlugin(List.of()).onPodCreate(same, job, "master", 0);
        new PytorchPlugin(List.of()).onPodCreate(other, job, "master", 0);
        assertThat(ports(same)).containsExactly(23456);
        assertThat(ports(other)).containsExactly(123, 23456);
        assertThat(other.at("/spec/containers/0/ports/1/name").asText()).isEqualTo(PytorchPlugin.PORT_NAME);
    }

    private static final String MASTER_ADDR = "test-pytorch-master-0.test-pytorch";

    /** Volcano's TestPytorchInitContainer: args, job, pod (task, index, existing init containers), expected init containers. */
    static Stream<Arguments> initContainer() {
        Job job = job("test-pytorch", "master:1", "worker:2");
        String waitDefault = new PytorchPlugin(List.of("--wait-master-enabled=true")).waitForMasterScript(MASTER_ADDR);
        String waitLonger = new PytorchPlugin(List.of("--wait-master-enabled=true", "--wait-master-timeout=600"))
                .waitForMasterScript(MASTER_ADDR);
        String existing =
                "[{\"name\":\"wait-for-master\",\"image\":\"busybox:1.36.1\",\"command\":[\"sh\",\"-c\",\"echo 'already exists'\"]}]";
        return Stream.of(
                Arguments.of(
                        "worker pod with wait-master enabled should have init container",
                        List.of("--wait-master-enabled=true"),
                        job,
                        "worker",
                        null,
                        "busybox:1.36.1",
                        waitDefault),
                Arguments.of(
                        "worker pod with wait-master disabled should not have init container",
                        List.of("--wait-master-enabled=false"),
                        job,
                        "worker",
                        null,
                        null,
                        null),
                Arguments.of(
                        "master pod should not have wait-for-master init container",
                        List.of("--wait-master-enabled=true"),
                        job,
                        "master",
                        null,
                        null,
                        null),
                Arguments.of(
                        "pod without master task should not have init container",
                        List.of("--wait-master-enabled=true"),
                        job("test-pytorch", "worker:1"),
                        "worker",
                        null,
                        null,
                        null),
                Arguments.of(
                        "worker pod with existing wait-for-master init container should not add duplicate",
                        List.of("--wait-master-enabled=true"),
                        job,
                        "worker",
                        existing,
                        "busybox:1.36.1",
                        "echo 'already exists'"),
                Arguments.of(
                        "worker pod with custom image and timeout",
                        List.of(
                                "--wait-master-enabled=true",
                                "--wait-master-image=alpine:latest",
                                "--wait-master-timeout=600"),
                        job,
                        "worker",
                        null,
                        "alpine:latest",
                        waitLonger));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void initContainer(
            String name, List<String> args, Job job, String task, String existing, String image, String script) {
        ObjectNode pod = pod("test-pytorch-" + task + "-0", task, "[{\"name\":\"" + task + "\"}]");
        if (existing != null) {
            ((ObjectNode) pod.get("spec"))
                    .set(
                            "initContainers",
                            pod(task, task, existing).path("spec").path("containers"));
        }
        new PytorchPlugin(args).onPodCreate(pod, job, task, 0);
        JsonNode inits = pod.path("spec").path("initContainers");
        if (image == null) {
            assertThat(inits.isMissingNode()).isTrue();
            return;
        }
        assertThat(inits).hasSize(1);
        assertThat(inits.get(0).path("name").asText()).isEqualTo(PytorchPlugin.WAIT_FOR_MASTER);
        assertThat(inits.get(0).path("image").asText()).isEqualTo(image);
        assertThat(inits.get(0).path("command").get(0).asText()).isEqualTo("sh");
        assertThat(inits.get(0).path("command").get(2).asText()).isEqualTo(script);
    }

    @Test
    void theWaitScriptIsVolcanos() {
        assertThat(new PytorchPlugin(List.of("--port", "5000", "--wait-master-timeout=600"))
                        .waitForMasterScript("m-0.j"))
                .startsWith("echo \"Waiting for master node m-0.j:5000 to be ready...\"\nTIMEOUT=600\nELAPSED=0\n")
                .contains("until { nc -z m-0.j 5000 || echo > /dev/tcp/m-0.j/5000; } 2>/dev/null; do\n")
                .endsWith("  ELAPSED=$((ELAPSED + 2))\ndone\necho \"Master node is ready!\"");
    }

    @Test
    void admissionRejectsWhatVolcanoWouldSkipOrBreakOn() {
        Job job = job("test-pytorch", "master:1", "worker:2");
        assertThat(new PytorchPlugin(List.of("--master=master", "--port", "0x5dc0")).validate(job.spec()))
                .isEmpty();
        assertThat(new PytorchPlugin(List.of("--master=launcher")).validate(job.spec()))
                .containsExactly(
                        "the master task \"launcher\" was not found: the pytorch plugin needs it for MASTER_ADDR");
        assertThat(new PytorchPlugin(List.of("--port=70000")).validate(job.spec()))
                .containsExactly("--port: 70000 is not a port (1 to 65535)");
        assertThat(new PytorchPlugin(List.of("--prot=5000", "--port=5000")).validate(job.spec()))
                .containsExactly(
                        "flag provided but not defined: -prot (known: master, worker, port, wait-master-enabled,"
                                + " wait-master-timeout, wait-master-image)");
        assertThat(new PytorchPlugin(List.of("--wait-master-enabled=yes")).validate(job.spec()))
                .containsExactly("invalid boolean value \"yes\" for -wait-master-enabled: parse error");
        assertThat(new PytorchPlugin(List.of("--wait-master-enabled", "--wait-master-image=")).validate(job.spec()))
                .containsExactly("--wait-master-image: must not be empty when --wait-master-enabled");
    }
}
