package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 36, other workloads: pods Lahar did not create, scheduled as Volcano schedules any pod with
 * its schedulerName. A Spark-style driver and two executors in a PodGroup of minMember 3 made by
 * another operator, and a bare pod (for which the bridge makes Volcano's one-pod PodGroup), are
 * bound to the simulated nodes and run, and their PodGroup CRs' status goes Running and then
 * Completed, with the counts; a PodGroup of a queue that does not exist is not scheduled and says
 * why on the CR, in its status and in a Warning Event.
 */
@ExtendWith(LaharSystemExtension.class)
class OtherWorkloadsIT {

    static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static void podGroup(LaharSystem system, String name, int minMember, String queue) {
        system.kube()
                .genericKubernetesResources(VolcanoApiIT.POD_GROUPS)
                .inNamespace(system.namespace)
                .resource(Serialization.unmarshal(
                        """
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: %s, namespace: %s}
                        spec: {minMember: %d, queue: %s, minResources: {cpu: "%d"}}
                        """.formatted(name, system.namespace, minMember, queue, minMember),
                        GenericKubernetesResource.class))
                .create();
    }

    /** A pod as the Spark operator makes it: its group in the annotation, the scheduler's name, a role label. */
    private static void pod(LaharSystem system, String name, String group, String role, String duration) {
        String annotations = group == null
                ? "{lahar.io/sim-duration: %s}".formatted(duration)
                : "{scheduling.k8s.io/group-name: %s, lahar.io/sim-duration: %s}".formatted(group, duration);
        system.kube()
                .pods()
                .inNamespace(system.namespace)
                .resource(Serialization.unmarshal(
                        """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: %s
                          namespace: %s
                          labels: {spark-role: %s}
                          annotations: %s
                        spec:
                          schedulerName: %s
                          restartPolicy: Never
                          containers:
                          - {name: main, image: busybox, resources: {requests: {cpu: "1", memory: 256Mi}}}
                        """.formatted(name, system.namespace, role, annotations, system.schedulerName), Pod.class))
                .create();
    }

    private static GenericKubernetesResource group(LaharSystem system, String name) {
        return system.kube()
                .genericKubernetesResources(VolcanoApiIT.POD_GROUPS)
                .inNamespace(system.namespace)
                .withName(name)
                .get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(GenericKubernetesResource group) {
        Object status = group == null ? null : group.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<Event> events(LaharSystem system, String name) {
        return system.kube().v1().events().inNamespace(system.namespace).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    /** Polls the CR until its phase is {@code last}, noting every phase it showed on the way. */
    private static List<String> phasesUntil(LaharSystem system, String name, String last) {
        List<String> seen = new ArrayList<>();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
            Object phase = status(group(system, name)).get("phase");
            if (phase != null && (seen.isEmpty() || !seen.getLast().equals(phase))) seen.add(phase.toString());
            return last.equals(phase);
        });
        return seen;
    }

    @Test
    void aSparkStyleGangAndABarePodAreBoundRunAndTheirPodGroupsShowIt(LaharSystem system) {
        podGroup(system, "spark-pi", 3, "default");
        pod(system, "spark-pi-driver", "spark-pi", "driver", "6s");
        pod(system, "spark-pi-exec-1", "spark-pi", "executor", "6s");
        pod(system, "spark-pi-exec-2", "spark-pi", "executor", "6s");
        pod(system, "bare", null, "none", "6s");

        List<String> sparkPhases = phasesUntil(system, "spark-pi", "Running");
        assertThat(sparkPhases).last().isEqualTo("Running");
        for (String name : List.of("spark-pi-driver", "spark-pi-exec-1", "spark-pi-exec-2", "bare")) {
            await().atMost(TIMEOUT).untilAsserted(() -> {
                Pod pod = system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withName(name)
                        .get();
                assertThat(pod.getSpec().getNodeName()).as(name + " bound").isNotBlank();
                assertThat(pod.getStatus().getPhase()).as(name).isIn("Running", "Succeeded");
            });
        }
        String barePodGroup = "podgroup-"
                + system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withName("bare")
                        .get()
                        .getMetadata()
                        .getUid();
        assertThat(system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withName("bare")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", barePodGroup);
        assertThat(status(group(system, barePodGroup)).get("phase")).isIn("Running", "Completed");

        // The gang's pods finish: the group is Completed, with its counts, and said so in Events.
        phasesUntil(system, "spark-pi", "Completed");
        assertThat(status(group(system, "spark-pi")))
                .containsEntry("succeeded", 3)
                .containsEntry("running", 0);
        // Each Event follows its status write: awaited, not read at the first look.
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(events(system, "spark-pi"))
                        .extracting(Event::getReason)
                        .contains("Running", "Completed"));
        phasesUntil(system, barePodGroup, "Completed");

        // A bare pod's group goes with its pod.
        system.kube().pods().inNamespace(system.namespace).withName("bare").delete();
        await().atMost(TIMEOUT).until(() -> group(system, barePodGroup) == null);
    }

    @Test
    void aPodGroupOfAQueueThatDoesNotExistIsNotScheduledAndSaysWhyOnTheCr(LaharSystem system) {
        podGroup(system, "no-queue", 1, "nope");
        pod(system, "no-queue-driver", "no-queue", "driver", "1s");

        await().atMost(TIMEOUT).untilAsserted(() -> {
            Map<String, Object> status = status(group(system, "no-queue"));
            assertThat(status.get("phase")).isEqualTo("Pending");
            assertThat(String.valueOf(status.get("conditions"))).contains("Unschedulable", "queue \"nope\" not found");
        });
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(events(system, "no-queue")).anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo("Unschedulable");
                    assertThat(e.getMessage()).contains("queue \"nope\" not found");
                }));
        assertThat(system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withName("no-queue-driver")
                        .get()
                        .getSpec()
                        .getNodeName())
                .as("never bound")
                .isNull();
        system.kube()
                .pods()
                .inNamespace(system.namespace)
                .withName("no-queue-driver")
                .delete();
        system.kube()
                .genericKubernetesResources(VolcanoApiIT.POD_GROUPS)
                .inNamespace(system.namespace)
                .withName("no-queue")
                .delete();
    }
}
