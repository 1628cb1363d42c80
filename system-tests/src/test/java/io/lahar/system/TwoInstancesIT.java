package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.cli.replay.InputLog;
import io.lahar.schema.Topics;
import io.lahar.testkit.ServiceProcess;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two streams-app instances of one application (same application id, their own HTTP ports and
 * state dirs) split the job partitions between them; the REST API on either answers for every job:
 * the list gathers the other instance's jobs, a job's GET is forwarded to the instance that owns it.
 */
@ExtendWith(LaharSystemExtension.class)
class TwoInstancesIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Test
    void eitherInstanceListsEveryJobAndAnswersForEachOne(LaharSystem system) throws Exception {
        // One job in every partition: whatever the split, each instance owns some of them.
        List<String> jobs = new ArrayList<>();
        Set<Integer> covered = new HashSet<>();
        for (int i = 0; covered.size() < Topics.JOB_PARTITIONS; i++) {
            String name = "pair-" + i;
            if (covered.add(InputLog.partitionOf(system.key(name), Topics.JOB_PARTITIONS))) {
                jobs.add(system.submit(job(system, name)));
            }
        }
        for (String job : jobs) {
            JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Completed", TIMEOUT);
        }

        ServiceProcess first = system.streamsApp();
        ServiceProcess second = system.startStreamsApp(system.newStateDir()).awaitReady(LaharSystem.READY_TIMEOUT);
        try {
            // Until the rebalance is done and the stores restored, an instance answers 503 or holds all.
            AtomicReference<String> last = new AtomicReference<>("nothing yet");
            AtomicReference<Set<String>> everyJob = new AtomicReference<>(Set.of());
            try {
                await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
                    try {
                        Set<String> onFirst =
                                names(get(system, first, "/api/v1/jobs?local=true&namespace=" + system.namespace));
                        Set<String> onSecond =
                                names(get(system, second, "/api/v1/jobs?local=true&namespace=" + system.namespace));
                        last.set("first holds " + onFirst + ", second holds " + onSecond);
                        Set<String> both = new HashSet<>(onFirst);
                        both.addAll(onSecond);
                        everyJob.set(both);
                        // Other tests' jobs share the namespace: this test's must all be there, on both sides.
                        return both.containsAll(jobs)
                                && !Collections.disjoint(onFirst, jobs)
                                && !Collections.disjoint(onSecond, jobs);
                    } catch (IOException e) {
                        last.set(e.getMessage());
                        return false;
                    }
                });
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(
                        "the two instances did not split the jobs " + jobs + ": " + last.get() + system.logs(), e);
            }

            for (ServiceProcess instance : List.of(first, second)) {
                assertThat(names(get(system, instance, "/api/v1/jobs?namespace=" + system.namespace)))
                        .as("the list on " + instance.name())
                        .containsExactlyInAnyOrderElementsOf(everyJob.get());
                for (String job : jobs) {
                    JsonNode found = get(system, instance, "/api/v1/jobs/" + system.namespace + "/" + job);
                    assertThat(found.path("metadata").path("name").asText())
                            .as(job + " on " + instance.name())
                            .isEqualTo(job);
                    assertThat(found.path("status").path("state").path("phase").asText())
                            .isEqualTo("Completed");
                }
            }
        } finally {
            second.stop(); // back to one instance for the other tests
        }
    }

    private static JsonNode get(LaharSystem system, ServiceProcess instance, String path)
            throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(instance.uri(path))
                        .header("Authorization", system.authorization())
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    instance.name() + " answered " + response.statusCode() + " to " + path + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static Set<String> names(JsonNode list) {
        Set<String> names = new HashSet<>();
        list.forEach(j -> names.add(j.path("name").asText()));
        return names;
    }

    private static String job(LaharSystem system, String name) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
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
                """.formatted(name, system.schedulerName);
    }
}
