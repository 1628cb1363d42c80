package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.QueueState;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.TaskState;
import io.lahar.schema.UpdateJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VolcanoCrsTest {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.890Z");

    static GenericKubernetesResource cr(String yaml) {
        return K8S.unmarshal(yaml, GenericKubernetesResource.class);
    }

    static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: tf-job
              namespace: team
              uid: 1234
              generation: 2
              resourceVersion: "77"
              labels: {app: tf}
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: "{...}"
                owner: me
            spec:
              minAvailable: 2
              queue: default
              tasks:
              - name: worker
                replicas: 2
                template:
                  spec:
                    containers:
                    - name: worker
                      image: worker-img
                      command: [sh, -c, "sleep 10"]
            status:
              state: {phase: Running}
            """;

    @Test
    void jobCrBecomesSubmitWithTheManifestCoreReads() {
        JobCommand command = VolcanoCrs.submit(cr(JOB), NOW);

        assertThat(command.getNamespace()).isEqualTo("team");
        assertThat(command.getName()).isEqualTo("tf-job");
        assertThat(command.getSender()).isEqualTo("k8s-bridge");
        assertThat(command.getRequestId()).isEqualTo("k8s:1234:submit");
        assertThat(command.getTime()).isEqualTo(NOW);
        String manifest = ((SubmitJob) command.getCommand()).getManifest();
        assertThat(manifest)
                .doesNotContain("status")
                .doesNotContain("last-applied")
                .doesNotContain("resourceVersion");
        Job job = Manifests.read(manifest, Job.class);
        assertThat(job.name()).isEqualTo("tf-job");
        assertThat(job.namespace()).isEqualTo("team");
        assertThat(job.metadata().labels()).containsEntry("app", "tf");
        assertThat(job.metadata().annotations()).containsOnlyKeys("owner");
        assertThat(job.spec().tasks())
                .singleElement()
                .satisfies(t -> assertThat(t.replicas()).isEqualTo(2));
        assertThat(manifest).contains("sleep 10");
    }

    @Test
    void updateAndDeleteHaveTheirOwnRequestIds() {
        JobCommand update = VolcanoCrs.update(cr(JOB), NOW);
        assertThat(update.getCommand()).isInstanceOf(UpdateJob.class);
        assertThat(update.getRequestId()).isEqualTo("k8s:1234:generation-2");
        GenericKubernetesResource noGeneration = cr(JOB);
        noGeneration.getMetadata().setGeneration(null);
        assertThat(VolcanoCrs.update(noGeneration, NOW).getRequestId()).isEqualTo("k8s:1234:rv-77");
        JobCommand delete = VolcanoCrs.delete(cr(JOB), NOW);
        assertThat(delete.getCommand()).isInstanceOf(DeleteJob.class);
        assertThat(delete.getRequestId()).isEqualTo("k8s:1234:delete");
    }

    @Test
    void commandCrBecomesTheJobAction() {
        JobCommand command = VolcanoCrs.action(cr("""
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: tf-job-abortjob-x1, namespace: team, uid: c-1}
                action: AbortJob
                target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: tf-job, uid: j-1}
                """), NOW);
        assertThat(command.getName()).isEqualTo("tf-job");
        assertThat(command.getNamespace()).isEqualTo("team");
        assertThat(command.getRequestId()).isEqualTo("k8s:command:c-1");
        assertThat(((JobActionCommand) command.getCommand()).getAction()).isEqualTo(JobAction.AbortJob);
    }

    @Test
    void aBadCommandNamesEveryBadField() {
        assertThatThrownBy(() -> VolcanoCrs.action(cr("""
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: c, namespace: team}
                action: Explode
                target: {kind: Pod}
                """), NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("action: \"Explode\" is not a Volcano job action")
                .hasMessageContaining("target.kind")
                .hasMessageContaining("target.name: missing");
    }

    @Test
    void queueCrWithVolcanosDefaults() {
        var queue = VolcanoCrs.queue(cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: q1}
                spec:
                  capability: {cpu: "8"}
                  guarantee: {resource: {memory: 4Gi}}
                """), NOW);
        assertThat(queue.getName()).isEqualTo("q1");
        assertThat(queue.getWeight()).isEqualTo(1);
        assertThat(queue.getReclaimable()).isTrue();
        assertThat(queue.getState()).isEqualTo(QueueState.Open);
        assertThat(queue.getCapability()).containsEntry("cpu", "8");
        assertThat(queue.getGuarantee()).containsEntry("memory", "4Gi");
        assertThat(queue.getParent()).isNull();

        var closed = VolcanoCrs.queue(cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: q2}
                spec: {weight: 5, reclaimable: false, parent: root}
                status: {state: Closed}
                """), NOW);
        assertThat(closed.getWeight()).isEqualTo(5);
        assertThat(closed.getReclaimable()).isFalse();
        assertThat(closed.getParent()).isEqualTo("root");
        assertThat(closed.getState()).isEqualTo(QueueState.Closed);
    }

    @Test
    @SuppressWarnings("unchecked")
    void podGroupRecordBecomesTheCr() {
        PodGroup group = PodGroup.newBuilder()
                .setNamespace("team")
                .setName("tf-job")
                .setJob("tf-job")
                .setCreationTimestamp(NOW)
                .setTime(NOW)
                .setSpec(PodGroupSpec.newBuilder()
                        .setMinMember(6)
                        .setQueue("default")
                        .setMinTaskMember(Map.of("ps", 1))
                        .setMinResources(Map.of("cpu", "6"))
                        .setSubGroupPolicy(List.of(io.lahar.schema.SubGroupPolicy.newBuilder()
                                .setName("worker")
                                .setSubGroupSize(2)
                                .setMinSubGroups(1)
                                .setMatchLabels(Map.of("volcano.sh/task-spec", "worker"))
                                .setMatchLabelKeys(List.of("volcano.sh/task-partition-id"))
                                .build()))
                        .build())
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase("Inqueue")
                        .setRunning(0)
                        .setSucceeded(0)
                        .setFailed(0)
                        .setConditions(List.of(PodGroupCondition.newBuilder()
                                .setType("Unschedulable")
                                .setStatus("True")
                                .setReason("NotEnoughResources")
                                .setLastTransitionTime(NOW)
                                .build()))
                        .build())
                .build();
        GenericKubernetesResource cr = VolcanoCrs.podGroup(group, Optional.of(Pods.jobOwner("tf-job", "u")));
        assertThat(cr.getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
        assertThat(cr.getKind()).isEqualTo("PodGroup");
        assertThat(cr.getMetadata().getOwnerReferences()).hasSize(1);
        Map<String, Object> spec =
                (Map<String, Object>) cr.getAdditionalProperties().get("spec");
        assertThat(spec)
                .containsEntry("minMember", 6)
                .containsEntry("queue", "default")
                .containsEntry("minTaskMember", Map.of("ps", 1))
                .containsEntry("minResources", Map.of("cpu", "6"))
                .containsEntry(
                        "subGroupPolicy",
                        List.of(Map.of(
                                "name",
                                "worker",
                                "subGroupSize",
                                2,
                                "minSubGroups",
                                1,
                                "labelSelector",
                                Map.of("matchLabels", Map.of("volcano.sh/task-spec", "worker")),
                                "matchLabelKeys",
                                List.of("volcano.sh/task-partition-id"))));
        Map<String, Object> status =
                (Map<String, Object>) cr.getAdditionalProperties().get("status");
        assertThat(status).containsEntry("phase", "Inqueue");
        assertThat((List<Map<String, Object>>) status.get("conditions"))
                .singleElement()
                .satisfies(c -> assertThat(c)
                        .containsEntry("reason", "NotEnoughResources")
                        .containsEntry("lastTransitionTime", "2026-03-04T05:06:07Z"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jobStatusAsVolcanosJson() {
        JobStatusRecord record = JobStatusRecord.newBuilder()
                .setNamespace("team")
                .setName("tf-job")
                .setUid("u")
                .setQueue("default")
                .setManifest("{}")
                .setTime(NOW)
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder()
                                .setPhase("Running")
                                .setReason("PodsRunning")
                                .setLastTransitionTime(NOW)
                                .build())
                        .setMinAvailable(2)
                        .setRunning(2)
                        .setVersion(1)
                        .setRetryCount(0)
                        .setRunningDuration(
                                Duration.ofSeconds(90).plusMillis(500).toMillis())
                        .setTaskStatusCount(Map.of(
                                "worker",
                                TaskState.newBuilder()
                                        .setPhase(Map.of("Running", 2))
                                        .build()))
                        .setConditions(List.of(JobCondition.newBuilder()
                                .setStatus("Running")
                                .setLastTransitionTime(NOW)
                                .build()))
                        .build())
                .build();
        Map<String, Object> status = VolcanoCrs.jobStatus(record);
        assertThat((Map<String, Object>) status.get("state"))
                .containsEntry("phase", "Running")
                .containsEntry("reason", "PodsRunning");
        assertThat(status)
                .containsEntry("minAvailable", 2)
                .containsEntry("running", 2)
                .containsEntry("version", 1)
                .containsEntry("runningDuration", "1m30.5s")
                .containsEntry("taskStatusCount", Map.of("worker", Map.of("phase", Map.of("Running", 2))));
        assertThat((List<?>) status.get("conditions")).hasSize(1);
    }

    @Test
    void goDurations() {
        assertThat(VolcanoCrs.goDuration(Duration.ZERO)).isEqualTo("0s");
        assertThat(VolcanoCrs.goDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(VolcanoCrs.goDuration(Duration.ofHours(2).plusSeconds(3))).isEqualTo("2h0m3s");
        assertThat(VolcanoCrs.goDuration(Duration.ofMillis(250))).isEqualTo("0.25s");
    }
}
