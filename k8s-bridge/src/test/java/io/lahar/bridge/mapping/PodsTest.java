package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.bridge.TestIntents;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PodsTest {

    @Test
    void podCarriesTemplateLabelsAnnotationsSchedulerAndOwner() {
        PodIntent intent = TestIntents.create("ns1", "tf", "ps", 1, 3, TestIntents.template("sleep 5"));
        Pod pod = Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.of(Pods.jobOwner("tf", "cr-uid")));

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
        assertThat(pod.getSpec().getContainers()).singleElement()
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
        PodIntent intent = TestIntents.create("ns1", "tf", "ps", 0, 1,
                "{\"spec\":{\"nodeName\":\"sneaky\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
        CreatePod create = (CreatePod) intent.getIntent();
        create.setSchedulerName("");
        Pod pod = Pods.pod(intent, create, Optional.empty());
        assertThat(pod.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(pod.getSpec().getNodeName()).isNull();
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo(BridgeLabels.DEFAULT_SCHEDULER);
    }

    @Test
    void aTemplateThatIsNotJsonIsRejectedWithItsField() {
        PodIntent intent = TestIntents.create("ns1", "tf", "ps", 0, 1, "{not json");
        assertThatThrownBy(() -> Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intent.template");
    }
}
