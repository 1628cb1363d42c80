package io.lahar.core.job.plugins;

import static io.lahar.core.job.plugins.FrameworkPods.job;
import static io.lahar.core.job.plugins.FrameworkPods.pod;
import static io.lahar.core.job.plugins.FrameworkPods.ports;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.job.WorldAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Volcano's ray_test.go (TestRayPlugin, both cases), then what Lahar's admission adds. */
class RayPluginTest {

    private static List<String> command(ObjectNode pod) {
        List<String> out = new ArrayList<>();
        pod.path("spec").path("containers").path(0).path("command").forEach(c -> out.add(c.asText()));
        return out;
    }

    @Test
    void rayClusterTestWithOnlyHeadTask() {
        Job job = job("ray-cluster-test", "test-head:1");
        RayPlugin ray =
                new RayPlugin(List.of("--port=1234", "--dashboardPort=3456", "--clientPort=4567", "--head=test-head"));
        ObjectNode pod = pod("ray-cluster-test-head-0", "test-head", "[{\"name\":\"head\"}]");
        ray.onPodCreate(pod, job, "test-head", 0);
        assertThat(command(pod))
                .containsExactly(
                        "sh",
                        "-c",
                        "ray start --head --block --dashboard-host=0.0.0.0 --port=1234 --dashboard-port=3456 --ray-client-server-port=4567");
        assertThat(ports(pod)).containsExactly(1234, 3456, 4567);
        assertThat(pod.at("/spec/containers/0/ports").findValuesAsText("name"))
                .containsExactly("gcs", "dashboard", "client-server");
        assertService(ray, job, "ray-cluster-test-head-svc", "test-head", 1234, 3456, 4567);
    }

    @Test
    void rayClusterTestWithWorkerTask() {
        Job job = job("ray-cluster-worker", "head:1", "worker:2");
        RayPlugin ray = new RayPlugin(List.of());
        ObjectNode pod = pod("ray-cluster-test-worker-0", "worker", "[{\"name\":\"worker\"}]");
        ray.onPodCreate(pod, job, "worker", 0);
        assertThat(command(pod))
                .containsExactly(
                        "sh", "-c", "ray start --block --address=ray-cluster-worker-head-0.ray-cluster-worker:6379");
        assertThat(ports(pod)).isEmpty();
        assertService(ray, job, "ray-cluster-worker-head-svc", "head", 6379, 8265, 10001);
    }

    private static void assertService(RayPlugin ray, Job job, String name, String head, int... ports) {
        List<WorldAction> added = ray.onJobAdd(job);
        assertThat(added).singleElement().isInstanceOfSatisfying(WorldAction.CreateObject.class, o -> {
            assertThat(o.kind()).isEqualTo("Service");
            assertThat(o.name()).isEqualTo(name);
            JsonNode spec = o.object().path("spec");
            assertThat(spec.path("selector").path(PodLabels.TASK_SPEC).asText()).isEqualTo(head);
            assertThat(spec.path("selector").path(PodLabels.JOB_NAME).asText()).isEqualTo(job.name());
            assertThat(spec.path("ports").findValues("port"))
                    .extracting(JsonNode::asInt)
                    .containsExactly(ports[0], ports[1], ports[2]);
            assertThat(spec.path("ports").findValuesAsText("targetPort"))
                    .containsExactly("gcs", "dashboard", "client-server");
        });
        assertThat(ray.onJobDelete(job)).containsExactly(new WorldAction.DeleteObject("Service", name));
    }

    @Test
    void onlyTheNamedContainersAreEditedAndAGivenPortIsKept() {
        Job job = job("r", "head:1", "worker:1");
        ObjectNode head = pod(
                "r-head-0",
                "head",
                "[{\"name\":\"sidecar\"},{\"name\":\"head\",\"ports\":[{\"name\":\"redis\",\"containerPort\":6379}]}]");
        new RayPlugin(List.of()).onPodCreate(head, job, "head", 0);
        assertThat(head.at("/spec/containers/0").has("command")).isFalse();
        assertThat(head.at("/spec/containers/1/ports").findValues("containerPort"))
                .extracting(JsonNode::asInt)
                .containsExactly(6379, 8265, 10001);
    }

    @Test
    void admissionRejectsAClusterVolcanoWouldNotStart() {
        Job job = job("r", "head:1", "worker:2");
        assertThat(new RayPlugin(List.of()).validate(job.spec())).isEmpty();
        assertThat(new RayPlugin(List.of()).validate(job("r", "head:1").spec())).isEmpty();
        assertThat(new RayPlugin(List.of("--head=boss")).validate(job.spec()))
                .containsExactly("the head task \"boss\" was not found: a Ray cluster needs its head");
        assertThat(new RayPlugin(List.of("--headContainer=ray")).validate(job.spec()))
                .containsExactly(
                        "the head task \"head\" has no container \"ray\" (--headContainer) to run the Ray head");
        assertThat(new RayPlugin(List.of("--workerContainer=ray")).validate(job.spec()))
                .containsExactly(
                        "the worker task \"worker\" has no container \"ray\" (--workerContainer) to run a Ray worker");
        assertThat(new RayPlugin(List.of("--dashboardPort=0", "--clientPort", "65536")).validate(job.spec()))
                .containsExactly(
                        "--dashboardPort: 0 is not a port (1 to 65535)",
                        "--clientPort: 65536 is not a port (1 to 65535)");
        assertThat(new RayPlugin(List.of("--port")).validate(job.spec()))
                .containsExactly("flag needs an argument: -port");
    }
}
