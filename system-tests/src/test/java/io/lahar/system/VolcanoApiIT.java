package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Volcano's own API, as a Volcano user drives it with kubectl and vcctl, against the embedded
 * cluster: a batch.volcano.sh Job created through the Kubernetes API runs and gets its status back
 * on the CR; bus.volcano.sh Commands (what {@code vcctl job suspend|resume} create) abort and
 * resume a running job; a Job submitted over Kafka is shown as its CR, with its status, its pod
 * group (kept after the job finished), and its transitions as Events, and all of it goes with the job.
 */
@ExtendWith(LaharSystemExtension.class)
class VolcanoApiIT {

    static final ResourceDefinitionContext JOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh")
            .withVersion("v1alpha1")
            .withKind("Job")
            .withPlural("jobs")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext COMMANDS = new ResourceDefinitionContext.Builder()
            .withGroup("bus.volcano.sh")
            .withVersion("v1alpha1")
            .withKind("Command")
            .withPlural("commands")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1")
            .withKind("PodGroup")
            .withPlural("podgroups")
            .withNamespaced(true)
            .build();
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aVolcanoJobCreatedThroughTheApiRunsAndItsStatusAppearsOnTheCr(LaharSystem system) {
        jobs(system).resource(job(system, "cr-job", 2, "1s")).create();

        GenericKubernetesResource done = awaitCrPhase(system, "cr-job", "Completed");

        Map<String, Object> status = map(done.getAdditionalProperties().get("status"));
        assertThat(status)
                .containsEntry("succeeded", 2)
                .containsEntry("failed", 0)
                .containsEntry("running", 0)
                .containsEntry("minAvailable", 2);
        // The bridge read the status before this test's own reader of the topic did: let it catch up.
        JobsOnSimulatedNodesIT.awaitPhase(system, system.key("cr-job"), "Completed", TIMEOUT);
    }

    @Test
    void commandCrsSuspendAndResumeARunningJob(LaharSystem system) {
        jobs(system).resource(job(system, "cr-long", 1, "120s")).create();
        awaitCrPhase(system, "cr-long", "Running");

        command(system, "suspend-cr-long", "AbortJob", "cr-long");
        awaitCrPhase(system, "cr-long", "Aborted");
        await().atMost(TIMEOUT)
                .until(() -> system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withLabel("volcano.sh/job-name", "cr-long")
                        .list()
                        .getItems()
                        .isEmpty());

        command(system, "resume-cr-long", "ResumeJob", "cr-long");
        awaitCrPhase(system, "cr-long", "Running");

        assertThat(system.records.transitions(system.key("cr-long")))
                .filteredOn(t -> "CommandIssued".equals(t.getEvent()))
                .extracting(JobTransition::getAction)
                .containsSubsequence("AbortJob", "ResumeJob");
        // Done with it: deleting the CR deletes the job and its pods.
        jobs(system).withName("cr-long").delete();
        await().atMost(TIMEOUT)
                .until(() -> system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withLabel("volcano.sh/job-name", "cr-long")
                        .list()
                        .getItems()
                        .isEmpty());
    }

    @Test
    void aJobSubmittedOverKafkaIsAVcjobWithItsStatusPodGroupAndEventsUntilItIsDeleted(LaharSystem system) {
        String job = system.submit(system.simJob("kafka-job", 2, "1s"));

        GenericKubernetesResource done = awaitCrPhase(system, job, "Completed");
        assertThat(done.getMetadata().getAnnotations()).containsKey("lahar.io/mirror-of");
        assertThat(map(done.getAdditionalProperties().get("status"))).containsEntry("succeeded", 2);
        var podGroups = system.kube()
                .genericKubernetesResources(POD_GROUPS)
                .inNamespace(system.namespace)
                .withLabel("volcano.sh/job-name", job);
        await().atMost(TIMEOUT)
                .until(() -> podGroups.list().getItems().stream()
                        .anyMatch(pg -> "Completed"
                                .equals(map(pg.getAdditionalProperties().get("status"))
                                        .get("phase"))));
        assertThat(system.kube()
                        .v1()
                        .events()
                        .inNamespace(system.namespace)
                        .withField("involvedObject.name", job)
                        .withField("involvedObject.uid", done.getMetadata().getUid())
                        .list()
                        .getItems())
                .extracting(Event::getReason)
                .contains("Running", "Completed");

        system.send(JobCommand.newBuilder()
                .setRequestId(UUID.randomUUID().toString())
                .setSender("system-tests")
                .setNamespace(system.namespace)
                .setName(job)
                .setTime(Instant.now())
                .setCommand(new DeleteJob("done"))
                .build());
        await().atMost(TIMEOUT)
                .until(() -> jobs(system).withName(job).get() == null
                        && podGroups.list().getItems().isEmpty());
    }

    private static NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            jobs(LaharSystem system) {
        return system.kube().genericKubernetesResources(JOBS).inNamespace(system.namespace);
    }

    private static GenericKubernetesResource job(LaharSystem system, String name, int replicas, String duration) {
        GenericKubernetesResource job =
                Serialization.unmarshal(system.simJob(name, replicas, duration), GenericKubernetesResource.class);
        job.getMetadata().setNamespace(system.namespace);
        return job;
    }

    private static void command(LaharSystem system, String name, String action, String target) {
        GenericKubernetesResource command = Serialization.unmarshal(
                """
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata:
                  name: %s
                  namespace: %s
                action: %s
                target:
                  apiVersion: batch.volcano.sh/v1alpha1
                  kind: Job
                  name: %s
                """.formatted(name, system.namespace, action, target), GenericKubernetesResource.class);
        system.kube()
                .genericKubernetesResources(COMMANDS)
                .inNamespace(system.namespace)
                .resource(command)
                .create();
    }

    private static GenericKubernetesResource awaitCrPhase(LaharSystem system, String name, String phase) {
        try {
            return await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> jobs(system).withName(name).get(),
                            cr -> phase.equals(crPhase(cr).orElse(null)));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            GenericKubernetesResource cr = jobs(system).withName(name).get();
            throw new AssertionError(
                    "the CR " + name + " did not reach " + phase + " within " + TIMEOUT + "; it is "
                            + (cr == null ? "gone" : crPhase(cr).orElse("without status")) + "; its transitions: "
                            + system.records.transitions(system.key(name)).stream()
                                    .map(t -> t.getFrom() + "->" + t.getTo() + " (" + t.getEvent() + ")")
                                    .toList()
                            + system.logs(),
                    e);
        }
    }

    static Optional<String> crPhase(GenericKubernetesResource cr) {
        if (cr == null) {
            return Optional.empty();
        }
        Object phase = map(map(cr.getAdditionalProperties().get("status")).get("state"))
                .get("phase");
        return Optional.ofNullable(phase).map(Object::toString);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
