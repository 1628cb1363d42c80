package io.lahar.core.job.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.TestJobs;
import io.lahar.core.job.WorldAction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The framework plugins through the job controller, and the seed's TensorFlow example. */
class FrameworkJobsTest {

    private static final JobController CONTROLLER = new JobController(16, JobPluginRegistry.defaults());
    private static final Path EXAMPLE = Path.of("..", "examples", "tf-dist-mnist.yaml");

    private static Outcome submitted(Job job) {
        return CONTROLLER.apply(JobInfo.empty(), new Input.Submit(job, 0));
    }

    /** The pods the controller creates once the gang is admitted. */
    private static List<JsonNode> pods(Job job) {
        Outcome admitted =
                CONTROLLER.apply(submitted(job).state(), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1));
        return admitted.actions().stream()
                .filter(a -> a instanceof WorldAction.CreatePod)
                .map(a -> (JsonNode) ((WorldAction.CreatePod) a).pod())
                .toList();
    }

    private static JsonNode pod(List<JsonNode> pods, String name) {
        return pods.stream()
                .filter(p -> p.at("/metadata/name").asText().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The first container's env: "NAME=value", or "NAME<-configMap/key" for a value from a ConfigMap. */
    private static List<String> env(JsonNode pod) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : pod.at("/spec/containers/0/env")) {
            JsonNode ref = e.at("/valueFrom/configMapKeyRef");
            out.add(e.path("name").asText()
                    + (ref.isMissingNode()
                            ? "=" + e.path("value").asText()
                            : "<-" + ref.path("name").asText() + "/"
                                    + ref.path("key").asText()));
        }
        return out;
    }

    private static String seedAsWritten() throws IOException {
        return Files.readString(EXAMPLE).replace("    tensorflow: []\n", "");
    }

    /** As in Volcano: env and svc give the index and the hosts a TF_CONFIG is made of, not TF_CONFIG itself. */
    @Test
    void theSeedsTensorflowExampleAsWrittenGetsWhatVolcanoGivesItAndNoTfConfig() throws IOException {
        Job job = TestJobs.admitted(seedAsWritten());
        assertThat(job.spec().plugins()).containsOnlyKeys("env", "svc");
        assertThat(env(pod(pods(job), "tf-dist-mnist-worker-1")))
                .containsExactly(
                        "VK_TASK_INDEX=1", "VC_TASK_INDEX=1",
                        "VC_PS_HOSTS<-tf-dist-mnist-svc/VC_PS_HOSTS", "VC_PS_NUM<-tf-dist-mnist-svc/VC_PS_NUM",
                        "VC_WORKER_HOSTS<-tf-dist-mnist-svc/VC_WORKER_HOSTS",
                                "VC_WORKER_NUM<-tf-dist-mnist-svc/VC_WORKER_NUM");
        assertThat(submitted(job).actions())
                .filteredOn(a -> a instanceof WorldAction.CreateConfigMap)
                .singleElement()
                .satisfies(a -> assertThat(((WorldAction.CreateConfigMap) a).data())
                        .containsEntry("ps.host", "tf-dist-mnist-ps-0.tf-dist-mnist")
                        .containsEntry(
                                "worker.host",
                                "tf-dist-mnist-worker-0.tf-dist-mnist\ntf-dist-mnist-worker-1.tf-dist-mnist"));
    }

    /** The project's copy names the tensorflow plugin, so its pods get TF_CONFIG as the seed's comment says. */
    @Test
    void theExampleWithTheTensorflowPluginGetsTfConfig() throws IOException {
        Job job = TestJobs.admitted(Files.readString(EXAMPLE));
        List<JsonNode> pods = pods(job);
        String cluster = "{\"cluster\":{\"ps\":[\"tf-dist-mnist-ps-0.tf-dist-mnist:2222\"],\"worker\":"
                + "[\"tf-dist-mnist-worker-0.tf-dist-mnist:2222\",\"tf-dist-mnist-worker-1.tf-dist-mnist:2222\"]},";
        assertThat(env(pod(pods, "tf-dist-mnist-worker-1")))
                .endsWith("TF_CONFIG=" + cluster + "\"task\":{\"type\":\"worker\",\"index\":1}}");
        assertThat(env(pod(pods, "tf-dist-mnist-ps-0")))
                .endsWith("TF_CONFIG=" + cluster + "\"task\":{\"type\":\"ps\",\"index\":0}}");
    }

    @Test
    void aPytorchJobsPodsRendezvousAtTheMaster() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: ddp}
                spec:
                  plugins: {pytorch: ["--master=master", "--worker=worker", "--port=23456"]}
                  tasks:
                  - {name: master, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
                """);
        List<JsonNode> pods = pods(job);
        assertThat(env(pod(pods, "ddp-worker-1")))
                .containsSubsequence("MASTER_ADDR=ddp-master-0.ddp", "MASTER_PORT=23456", "WORLD_SIZE=3", "RANK=2");
        assertThat(pod(pods, "ddp-master-0")
                        .at("/spec/containers/0/ports/0/containerPort")
                        .asInt())
                .isEqualTo(23456);
        // svc, implied, makes the address resolve: hostname and subdomain, and the headless Service.
        assertThat(pod(pods, "ddp-master-0").at("/spec/hostname").asText()).isEqualTo("ddp-master-0");
        assertThat(pod(pods, "ddp-master-0").at("/spec/subdomain").asText()).isEqualTo("ddp");
    }

    @Test
    void aRayJobsHeadServiceIsAskedForOnceAndReleasedWithTheJob() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: rc}
                spec:
                  plugins: {ray: []}
                  tasks:
                  - {name: head, replicas: 1, template: {spec: {containers: [{name: head, image: rayproject/ray}]}}}
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: worker, image: rayproject/ray}]}}}
                """);
        Outcome submitted = submitted(job);
        assertThat(submitted.actions())
                .filteredOn(a -> a instanceof WorldAction.CreateObject)
                .extracting(a -> ((WorldAction.CreateObject) a).name())
                .containsExactlyInAnyOrder("rc", "rc-head-svc", "rc");
        assertThat(submitted.state().job().status().controlledResources()).containsEntry("plugin-ray", "ray");
        List<JsonNode> pods = pods(job);
        assertThat(pod(pods, "rc-worker-0").at("/spec/containers/0/command/2").asText())
                .isEqualTo("ray start --block --address=rc-head-0.rc:6379");
        Outcome deleted = CONTROLLER.apply(submitted.state(), new Input.Delete(2));
        assertThat(deleted.actions()).contains(new WorldAction.DeleteObject("Service", "rc-head-svc"));
    }
}
