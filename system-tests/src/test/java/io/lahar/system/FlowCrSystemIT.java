package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Volcano's flow.volcano.sh API as a Volcano user drives it with kubectl: JobTemplate and JobFlow
 * CRs created through the kube-emulator's Kubernetes API (fabric8) become flow commands (the
 * bridge), the flow engine runs the flow's jobs on the simulated nodes, and the flow's status
 * comes back onto the JobFlow CR with Volcano's field names.
 */
@ExtendWith(LaharSystemExtension.class)
class FlowCrSystemIT {

    static final ResourceDefinitionContext JOB_FLOWS = new ResourceDefinitionContext.Builder()
            .withGroup("flow.volcano.sh")
            .withVersion("v1alpha1")
            .withKind("JobFlow")
            .withPlural("jobflows")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext JOB_TEMPLATES = new ResourceDefinitionContext.Builder()
            .withGroup("flow.volcano.sh")
            .withVersion("v1alpha1")
            .withKind("JobTemplate")
            .withPlural("jobtemplates")
            .withNamespaced(true)
            .build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void jobFlowAndJobTemplateCrsRunToSucceedAndTheCrShowsIt(LaharSystem system) {
        for (String name : List.of("cr-prep", "cr-train")) {
            system.kube()
                    .genericKubernetesResources(JOB_TEMPLATES)
                    .inNamespace(system.namespace)
                    .resource(template(system, name))
                    .create();
        }
        // A JobFlow naming a template the engine has not seen yet is refused (as Volcano's webhook
        // refuses a missing one): wait until both are visible, as a user would see them listed.
        for (String name : List.of("cr-prep", "cr-train")) {
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> HTTP.send(
                                            HttpRequest.newBuilder(system.streamsApp()
                                                            .uri("/api/v1/jobtemplates/" + system.namespace + "/"
                                                                    + name))
                                                    .header("Authorization", system.authorization())
                                                    .GET()
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200);
        }
        system.kube()
                .genericKubernetesResources(JOB_FLOWS)
                .inNamespace(system.namespace)
                .resource(Serialization.unmarshal("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: cr-flow
                  namespace: %s
                spec:
                  flows:
                  - name: cr-prep
                  - name: cr-train
                    dependsOn:
                      targets:
                      - cr-prep
                """.formatted(system.namespace), GenericKubernetesResource.class))
                .create();

        GenericKubernetesResource done;
        try {
            done = await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> system.kube()
                                    .genericKubernetesResources(JOB_FLOWS)
                                    .inNamespace(system.namespace)
                                    .withName("cr-flow")
                                    .get(),
                            cr -> "Succeed".equals(phase(cr)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "the JobFlow CR did not reach Succeed; the engine's flow status: "
                            + system.records
                                    .flowStatus(system.key("cr-flow"))
                                    .map(Object::toString)
                                    .orElse("none")
                            + system.logs(),
                    e);
        }

        Map<String, Object> status = map(done.getAdditionalProperties().get("status"));
        // Volcano's omitempty: an empty list is left out.
        assertThat(status).as("the CR's status").doesNotContainKeys("failedJobs", "pendingJobs", "runningJobs");
        assertThat(status.get("completedJobs"))
                .as("the CR's status " + status)
                .asList()
                .containsExactlyInAnyOrder("cr-flow-cr-prep", "cr-flow-cr-train");
        assertThat(status.get("jobStatusList"))
                .as("the CR's status " + status)
                .asList()
                .extracting(j -> map(j).get("name"), j -> map(j).get("state"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("cr-flow-cr-prep", "Completed"),
                        org.assertj.core.groups.Tuple.tuple("cr-flow-cr-train", "Completed"));
        // The bridge read the statuses before this test's own reader of the topics did: let it catch up.
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> system.records.flowPhase(system.key("cr-flow")).equals("Succeed"));
        // jobRetainPolicy defaults to retain: the jobs stay, Completed, made by the flow.
        for (String job : List.of("cr-flow-cr-prep", "cr-flow-cr-train")) {
            JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Completed", TIMEOUT);
            assertThat(system.records.deleted(system.key(job))).isFalse();
        }
        // cr-train ran only once cr-prep had completed.
        assertThat(system.records
                        .transitions(system.key("cr-flow-cr-train"))
                        .get(0)
                        .getTime())
                .isAfterOrEqualTo(system.records.transitions(system.key("cr-flow-cr-prep")).stream()
                        .filter(t -> t.getTo().equals("Completed"))
                        .findFirst()
                        .orElseThrow()
                        .getTime());
    }

    private static GenericKubernetesResource template(LaharSystem system, String name) {
        return Serialization.unmarshal(
                """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  minAvailable: 1
                  schedulerName: %s
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 1s
                      spec:
                        containers:
                        - name: main
                          image: busybox
                          resources:
                            requests:
                              cpu: "1"
                """.formatted(name, system.namespace, system.schedulerName), GenericKubernetesResource.class);
    }

    private static String phase(GenericKubernetesResource cr) {
        if (cr == null) {
            return null;
        }
        Object phase = map(map(cr.getAdditionalProperties().get("status")).get("state"))
                .get("phase");
        return phase == null ? null : phase.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
