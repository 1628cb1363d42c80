package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.bridge.TestIntents;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.WorldAction;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import io.lahar.schema.codec.PodIntentCodec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodsTest {

    @Test
    void podCarriesTemplateLabelsAnnotationsSchedulerAndOwner() {
        PodIntent intent = TestIntents.create("ns1", "tf", "ps", 1, 3, TestIntents.template("sleep 5"));
        Pod pod = Pods.pod(
                intent, (CreatePod) intent.getIntent(), Optional.of(Pods.jobOwner("tf", "cr-uid")), new PodTemplates());

        assertThat(pod.getMetadata().getName()).isEqualTo("tf-ps-1");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("ns1");
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("app", "demo")
                .containsEntry(PodLabels.JOB_NAME, "tf")
                .containsEntry(PodLabels.TASK_SPEC, "ps")
                .containsEntry(BridgeLabels.MANAGED_BY, "lahar");
        assertThat(pod.getMetadata().getAnnotations())
                .containsEntry("note", "kept")
                .containsEntry(PodLabels.JOB_VERSION, "3")
                .containsEntry(PodLabels.TASK_INDEX, "1")
                .containsEntry(PodLabels.GROUP_NAME, "tf")
                .containsEntry(BridgeLabels.JOB_UID, "uid-tf");
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getContainers())
                .singleElement()
                .satisfies(c -> assertThat(c.getCommand()).containsExactly("sh", "-c", "sleep 5"));
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getApiVersion()).isEqualTo("batch.volcano.sh/v1alpha1");
            assertThat(o.getKind()).isEqualTo("Job");
            assertThat(o.getUid()).isEqualTo("cr-uid");
            assertThat(o.getController()).isTrue();
        });
        assertThat(Pods.jobVersion(pod)).isEqualTo(3);
    }

    @Test
    void withoutCrNoOwnerAndATemplateNodeNameIsDropped() {
        PodIntent intent = TestIntents.create(
                "ns1",
                "tf",
                "ps",
                0,
                1,
                "{\"spec\":{\"nodeName\":\"sneaky\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
        CreatePod create = (CreatePod) intent.getIntent();
        create.setSchedulerName("");
        Pod pod = Pods.pod(intent, create, Optional.empty(), new PodTemplates());
        assertThat(pod.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(pod.getSpec().getNodeName()).isNull();
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo(BridgeLabels.DEFAULT_SCHEDULER);
    }

    @Test
    void aTemplateThatIsNotJsonIsRejectedWithItsField() {
        PodIntent intent = TestIntents.create("ns1", "tf", "ps", 0, 1, "{not json");
        assertThatThrownBy(() -> Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.empty(), new PodTemplates()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intent.template");
    }

    /** What the pytorch plugin made of a pod (env, port, init container) reaches the pod the bridge creates. */
    @Test
    void aFrameworkPluginsEditsReachThePod() {
        Job job = JobAdmission.create(Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: ddp, namespace: ml}
                spec:
                  plugins: {pytorch: [--wait-master-enabled]}
                  tasks:
                  - {name: master, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
                """, Job.class), AdmissionContext.freshInstall())
                .object();
        ObjectNode created = JobPods.create(
                job,
                job.spec().tasks().get(1),
                1,
                0,
                0,
                "ddp-pg",
                JobPluginRegistry.defaults().plugins(job.spec().plugins()));
        PodIntentCodec.Mapping m = PodIntentCodec.map(
                new PodIntentCodec.Context("ml", "ddp", "u", 0, 0),
                new WorldAction.CreatePod("ddp-worker-1", "worker", 1, 0, created));
        PodIntent intent = ((PodIntentCodec.Intent) m).intent();
        Pod pod = Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.empty(), new PodTemplates());

        assertThat(pod.getSpec().getContainers().get(0).getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .contains("MASTER_ADDR=ddp-master-0.ddp", "MASTER_PORT=23456", "WORLD_SIZE=3", "RANK=2");
        assertThat(pod.getSpec().getContainers().get(0).getPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(23456));
        assertThat(pod.getSpec().getInitContainers()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("wait-for-master");
            assertThat(c.getCommand().get(2)).contains("nc -z ddp-master-0.ddp 23456");
        });
        assertThat(pod.getSpec().getHostname()).isEqualTo("ddp-worker-1");
        assertThat(pod.getSpec().getSubdomain()).isEqualTo("ddp");
    }
}
