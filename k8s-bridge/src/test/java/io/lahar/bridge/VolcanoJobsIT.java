package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.TaskState;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Volcano's Job API through the whole bridge, on the real broker and registry: a batch.volcano.sh
 * Job created through the API becomes a SubmitJob, the engine's status record for it lands on the
 * CR's status with Volcano's field names, bus.volcano.sh Commands (what {@code vcctl job
 * suspend/resume} create) become AbortJob / ResumeJob and are deleted, and deleting the CR sends
 * DeleteJob.
 */
@WithLaharInfra
class VolcanoJobsIT {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    /** Past the registry client's idle timeout: an answer the registry loses once is asked again within it. */
    private static final Duration WAIT = RegistrySerdes.IDLE_TIMEOUT.plusSeconds(30);

    @Test
    void aJobCrIsSubmittedGetsItsStatusIsSuspendedResumedAndDeleted(LaharInfra infra) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String ns = "vcjob-it-" + suffix;
        String job = "tf-" + suffix;
        String key = Topics.jobKey(ns, job);
        try (BridgeKafka kafka = new BridgeKafka(
                        infra, suffix, Map.of(Topics.JOB_COMMANDS.name(), JobCommand.class), key::equals);
                EmbeddedCluster cluster = EmbeddedCluster.start(
                        EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
                Bridge bridge = Bridge.start(
                        cluster.client(),
                        new Bridge.Settings(
                                KafkaClients.plaintext(infra.bootstrapServers()),
                                infra.registryUrl(),
                                null,
                                "vcjob-it-" + suffix,
                                true,
                                Optional.of(ns),
                                false,
                                Set.of(BridgeLabels.DEFAULT_SCHEDULER)),
                        Clock.systemUTC())) {
            KubernetesClient client = cluster.client();
            GenericKubernetesResource created = create(client, VolcanoKinds.JOBS, ns, """
                    apiVersion: batch.volcano.sh/v1alpha1
                    kind: Job
                    metadata: {name: %s}
                    spec:
                      minAvailable: 2
                      queue: default
                      tasks:
                      - {name: ps, replicas: 1, template: {spec: {containers: [{name: ps, image: tf}]}}}
                      - {name: worker, replicas: 1, template: {spec: {containers: [{name: w, image: tf}]}}}
                    """.formatted(job));

            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> !kafka.values(Topics.JOB_COMMANDS.name(), JobCommand.class)
                                    .isEmpty()))
                    .isTrue();
            JobCommand submit =
                    kafka.values(Topics.JOB_COMMANDS.name(), JobCommand.class).getFirst();
            assertThat(submit.getRequestId())
                    .isEqualTo("k8s:" + created.getMetadata().getUid() + ":submit");
            assertThat(submit.getCommand())
                    .isInstanceOfSatisfying(
                            SubmitJob.class,
                            s -> assertThat(s.getManifest())
                                    .contains("\"name\":\"worker\"")
                                    .contains("\"minAvailable\":2"));

            // The engine's answer: the job's status on lahar.job-status.
            Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
            kafka.send(
                    Topics.JOB_STATUS.name(),
                    key,
                    JobStatusRecord.newBuilder()
                            .setNamespace(ns)
                            .setName(job)
                            .setUid("lahar-uid")
                            .setQueue("default")
                            .setManifest("{}")
                            .setTime(t0.plusSeconds(5))
                            .setStatus(JobStatus.newBuilder()
                                    .setState(JobState.newBuilder()
                                            .setPhase("Running")
                                            .setReason("PodsRunning")
                                            .setLastTransitionTime(t0.plusSeconds(5))
                                            .build())
                                    .setMinAvailable(2)
                                    .setPending(1)
                                    .setRunning(1)
                                    .setSucceeded(0)
                                    .setFailed(0)
                                    .setVersion(2)
                                    .setRetryCount(1)
                                    .setRunningDuration(90_500L)
                                    .setTaskStatusCount(Map.of(
                                            "worker",
                                            new TaskState(Map.of("Running", 1)),
                                            "ps",
                                            new TaskState(Map.of("Pending", 1))))
                                    .setConditions(List.of(
                                            new JobCondition("Pending", t0),
                                            new JobCondition("Running", t0.plusSeconds(5))))
                                    .build())
                            .build());
            var jobs = client.genericKubernetesResources(VolcanoKinds.JOBS)
                    .inNamespace(ns)
                    .withName(job);
            assertThat(kafka.pollUntil(WAIT, () -> jobs.get().<Object>get("status") != null))
                    .isTrue();
            GenericKubernetesResource withStatus = jobs.get();
            assertThat(withStatus.get("status", "state", "phase").toString()).isEqualTo("Running");
            assertThat(withStatus.get("status", "state", "reason").toString()).isEqualTo("PodsRunning");
            assertThat(withStatus.get("status", "state", "lastTransitionTime").toString())
                    .isEqualTo("2026-03-01T10:00:05Z");
            assertThat(number(withStatus, "status", "minAvailable")).isEqualTo(2);
            assertThat(number(withStatus, "status", "pending")).isEqualTo(1);
            assertThat(number(withStatus, "status", "running")).isEqualTo(1);
            assertThat(number(withStatus, "status", "succeeded")).isZero();
            assertThat(number(withStatus, "status", "failed")).isZero();
            assertThat(number(withStatus, "status", "version")).isEqualTo(2);
            assertThat(number(withStatus, "status", "retryCount")).isEqualTo(1);
            assertThat(withStatus.get("status", "runningDuration").toString()).isEqualTo("1m30.5s");
            assertThat(number(withStatus, "status", "taskStatusCount", "worker", "phase", "Running"))
                    .isEqualTo(1);
            assertThat(withStatus.<List<Object>>get("status", "conditions"))
                    .containsExactly(
                            Map.of("status", "Pending", "lastTransitionTime", "2026-03-01T10:00:00Z"),
                            Map.of("status", "Running", "lastTransitionTime", "2026-03-01T10:00:05Z"));
            // The spec is untouched by the status write, and the write is no spec change: no UpdateJob.
            assertThat(withStatus.<Object>get("spec", "minAvailable"))
                    .isEqualTo(created.<Object>get("spec", "minAvailable"));

            // vcctl job suspend, then resume: Command CRs targeting the Job.
            command(
                    client,
                    ns,
                    job + "-abortjob-" + suffix,
                    "AbortJob",
                    job,
                    created.getMetadata().getUid());
            assertThat(kafka.pollUntil(WAIT, () -> actions(kafka).size() == 1)).isTrue();
            command(
                    client,
                    ns,
                    job + "-resumejob-" + suffix,
                    "ResumeJob",
                    job,
                    created.getMetadata().getUid());
            assertThat(kafka.pollUntil(WAIT, () -> actions(kafka).size() == 2)).isTrue();
            assertThat(actions(kafka))
                    .extracting(JobActionCommand::getAction)
                    .containsExactly(JobAction.AbortJob, JobAction.ResumeJob);
            // Consumed, as Volcano's controller deletes a Command it has acted on.
            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> client.genericKubernetesResources(VolcanoKinds.COMMANDS)
                                    .inNamespace(ns)
                                    .list()
                                    .getItems()
                                    .isEmpty()))
                    .isTrue();

            jobs.delete();
            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> kafka.values(Topics.JOB_COMMANDS.name(), JobCommand.class).stream()
                                    .anyMatch(c -> c.getCommand() instanceof DeleteJob)))
                    .isTrue();
            assertThat(kafka.values(Topics.JOB_COMMANDS.name(), JobCommand.class))
                    .extracting(c -> c.getCommand().getClass().getSimpleName())
                    .containsExactly("SubmitJob", "JobActionCommand", "JobActionCommand", "DeleteJob");
            assertThat(bridge.isRunning()).isTrue();
        }
    }

    private static List<JobActionCommand> actions(BridgeKafka kafka) {
        return kafka.values(Topics.JOB_COMMANDS.name(), JobCommand.class).stream()
                .map(JobCommand::getCommand)
                .filter(JobActionCommand.class::isInstance)
                .map(JobActionCommand.class::cast)
                .toList();
    }

    private static void command(
            KubernetesClient client, String ns, String name, String action, String job, String uid) {
        create(client, VolcanoKinds.COMMANDS, ns, """
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: %s}
                action: %s
                target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: %s, uid: %s}
                """.formatted(name, action, job, uid));
    }

    static GenericKubernetesResource create(
            KubernetesClient client, ResourceDefinitionContext kind, String ns, String yaml) {
        GenericKubernetesResource cr = K8S.unmarshal(yaml, GenericKubernetesResource.class);
        return client.genericKubernetesResources(kind)
                .inNamespace(ns)
                .resource(cr)
                .create();
    }

    private static int number(GenericKubernetesResource cr, String... path) {
        return ((Number) cr.get((Object[]) path)).intValue();
    }
}
