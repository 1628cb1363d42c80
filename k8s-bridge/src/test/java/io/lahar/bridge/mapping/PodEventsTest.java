package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.PodEvent;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PodEventsTest {

    private static final Instant NOW = Instant.parse("2026-02-03T04:05:06Z");

    private static PodBuilder pod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("tf-worker-2")
                .withNamespace("ns")
                .withUid("pod-uid")
                .addToLabels(PodLabels.JOB_NAME, "tf")
                .addToLabels(PodLabels.TASK_SPEC, "worker")
                .addToAnnotations(PodLabels.JOB_VERSION, "4")
                .addToAnnotations(BridgeLabels.JOB_UID, "job-uid")
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .endSpec();
    }

    @Test
    void failedPodReportsEachContainersExitCodeAndReason() {
        Pod pod = pod().withNewStatus()
                .withPhase("Failed")
                .addToContainerStatuses(new ContainerStatusBuilder()
                        .withName("main")
                        .withRestartCount(0)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(3)
                        .withReason("Error")
                        .endTerminated()
                        .endState()
                        .build())
                .addToContainerStatuses(new ContainerStatusBuilder()
                        .withName("side")
                        .withRestartCount(2)
                        .withNewState()
                        .withNewRunning()
                        .endRunning()
                        .endState()
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(137)
                        .withReason("OOMKilled")
                        .endTerminated()
                        .endLastState()
                        .build())
                .endStatus()
                .build();

        PodEvent event = PodEvents.event(pod, false, false, NOW);

        assertThat(event.getNamespace()).isEqualTo("ns");
        assertThat(event.getJob()).isEqualTo("tf");
        assertThat(event.getTask()).isEqualTo("worker");
        assertThat(event.getIndex()).isEqualTo(2);
        assertThat(event.getJobVersion()).isEqualTo(4);
        assertThat(event.getJobUid()).isEqualTo("job-uid");
        assertThat(event.getUid()).isEqualTo("pod-uid");
        assertThat(event.getPhase()).isEqualTo("Failed");
        assertThat(event.getNode()).isEqualTo("node-1");
        assertThat(event.getTime()).isEqualTo(NOW);
        assertThat(event.getContainers()).hasSize(2);
        assertThat(event.getContainers().get(0).getExitCode()).isEqualTo(3);
        assertThat(event.getContainers().get(0).getReason()).isEqualTo("Error");
        assertThat(event.getContainers().get(1).getExitCode()).isEqualTo(137);
        assertThat(event.getContainers().get(1).getReason()).isNull();
        assertThat(event.getContainers().get(1).getRestartCount()).isEqualTo(2);
    }

    @Test
    void theScheduledTimeIsThePodScheduledConditionsWhileTrue() {
        Pod bound = pod().withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .withLastTransitionTime("2026-02-03T04:00:00Z")
                .endCondition()
                .endStatus()
                .build();
        assertThat(PodEvents.event(bound, false, false, NOW).getScheduledTime())
                .isEqualTo(Instant.parse("2026-02-03T04:00:00Z"));
        Pod unschedulable = pod().withNewStatus()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withLastTransitionTime("2026-02-03T04:00:00Z")
                .endCondition()
                .endStatus()
                .build();
        assertThat(PodEvents.event(unschedulable, false, false, NOW).getScheduledTime())
                .isNull();
        assertThat(PodEvents.event(pod().build(), false, false, NOW).getScheduledTime())
                .isNull();
    }

    @Test
    void deletionFlagsAndDefaults() {
        Pod pod = pod().build();
        PodEvent event = PodEvents.event(pod, true, true, NOW);
        assertThat(event.getPhase()).isEqualTo("Pending");
        assertThat(event.getDeleted()).isTrue();
        assertThat(event.getDeletedByOthers()).isTrue();
        assertThat(event.getContainers()).isEmpty();
    }

    @Test
    void indexFromTheAnnotationElseTheName() {
        Pod annotated = pod().editMetadata()
                .addToAnnotations(PodLabels.TASK_INDEX, "7")
                .endMetadata()
                .build();
        assertThat(PodEvents.event(annotated, false, false, NOW).getIndex()).isEqualTo(7);
        assertThat(PodEvents.indexFromName("a-b-12")).isEqualTo(12);
        assertThat(PodEvents.indexFromName("weird")).isZero();
    }

    @Test
    void onlyPodsWithAJobAreJobPods() {
        assertThat(PodEvents.isJobPod(pod().build())).isTrue();
        assertThat(PodEvents.isJobPod(new PodBuilder()
                        .withNewMetadata()
                        .withName("x")
                        .endMetadata()
                        .build()))
                .isFalse();
    }
}
