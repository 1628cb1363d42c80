package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.schema.JobTransition;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 5's system test: the three services, the real broker and registry, the kube-emulator.
 * A job submitted as a JobCommand runs on the simulated nodes to Completed; a job whose first run
 * exits 1 under {@code exitCode: 1 → RestartJob} restarts once and then completes.
 */
@ExtendWith(LaharSystemExtension.class)
class JobsOnSimulatedNodesIT {

    static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void theSeedsTfJobRunsToCompletedWithEveryPodBoundToASimulatedNode(LaharSystem system) {
        String job = system.submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: tf-job
                spec:
                  minAvailable: 3
                  schedulerName: %s
                  policies:
                  - event: PodFailed
                    action: RestartJob
                  tasks:
                  - name: ps
                    replicas: 1
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 2s
                      spec:
                        containers:
                        - name: ps
                          image: ps-img
                  - name: worker
                    replicas: 2
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 2s
                      spec:
                        containers:
                        - name: worker
                          image: worker-img
                """.formatted(system.schedulerName));
        String key = system.key(job);

        awaitPhase(system, key, "Completed");

        Set<String> simulatedNodes =
                system.kube().nodes().withLabel("lahar.io/pool", system.pool).list().getItems().stream()
                        .map(n -> n.getMetadata().getName())
                        .collect(Collectors.toSet());
        assertThat(simulatedNodes).hasSize(3);
        List<Pod> pods = system.kube()
                .pods()
                .inNamespace(system.namespace)
                .withLabel("volcano.sh/job-name", job)
                .list()
                .getItems();
        assertThat(pods)
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("tf-job-ps-0", "tf-job-worker-0", "tf-job-worker-1");
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isIn(simulatedNodes);
            assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded");
        });
        assertThat(system.records.transitions(key))
                .extracting(JobTransition::getTo)
                .startsWith("Pending")
                .contains("Running")
                .endsWith("Completed");

        // The engine's view of the same pods (REST, what lahar job view lists): each on the node
        // Kubernetes bound it to.
        Map<String, String> bound = pods.stream()
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(), p -> p.getSpec().getNodeName()));
        await().atMost(JOB_TIMEOUT).untilAsserted(() -> {
            Map<String, String> seen = new HashMap<>();
            for (JsonNode pod : enginePods(system, job)) {
                assertThat(pod.path("phase").asText()).isEqualTo("Succeeded");
                seen.put(pod.path("name").asText(), pod.path("node").asText(null));
            }
            assertThat(seen).isEqualTo(bound);
        });
    }

    private static JsonNode enginePods(LaharSystem system, String job) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(
                                    system.streamsApp().uri("/api/v1/jobs/" + system.namespace + "/" + job + "/pods"))
                            .header("Authorization", system.authorization())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            return new ObjectMapper().readTree(answer.body());
        }
    }

    @Test
    void aJobWhosePodExitsOneUnderAnExitCodePolicyRestartsAndThenCompletes(LaharSystem system) {
        String job = system.submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: exit-once
                spec:
                  minAvailable: 1
                  schedulerName: %s
                  maxRetry: 3
                  policies:
                  - exitCode: 1
                    action: RestartJob
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 1s
                          lahar.io/sim-exit-codes: "1,0"
                      spec:
                        restartPolicy: Never
                        containers:
                        - name: main
                          image: busybox
                """.formatted(system.schedulerName));
        String key = system.key(job);

        awaitPhase(system, key, "Completed");

        List<JobTransition> transitions = system.records.transitions(key);
        assertThat(transitions)
                .filteredOn(t -> t.getTo().equals("Restarting"))
                .singleElement()
                .satisfies(t -> {
                    assertThat(t.getAction()).isEqualTo("RestartJob");
                    assertThat(t.getPolicy()).isEqualTo("spec.policies[0]");
                    assertThat(t.getVersion()).isEqualTo(1);
                });
        JobTransition completed = transitions.get(transitions.size() - 1);
        assertThat(completed.getTo()).isEqualTo("Completed");
        assertThat(completed.getVersion()).isEqualTo(1);
        assertThat(completed.getRetryCount()).isEqualTo(1);
        Pod pod = system.kube()
                .pods()
                .inNamespace(system.namespace)
                .withName("exit-once-main-0")
                .get();
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("volcano.sh/job-version", "1");
        assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
    }

    static void awaitPhase(LaharSystem system, String key, String phase) {
        awaitPhase(system, key, phase, JOB_TIMEOUT);
    }

    static void awaitPhase(LaharSystem system, String key, String phase, Duration timeout) {
        try {
            await().atMost(timeout)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> system.records.phase(key).equals(phase));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    key + " did not reach " + phase + " within " + timeout + "; its transitions: "
                            + system.records.transitions(key).stream()
                                    .map(t -> t.getFrom() + "->" + t.getTo() + " (" + t.getEvent() + ")")
                                    .toList()
                            + system.logs(),
                    e);
        }
    }
}
