package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatusRecord;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 4 on the real services: "every pending pod group has a reason, and the job status shows
 * it". A gang that cannot fit on this run's nodes (two pods of 9 cpu each, nodes of 8) passes
 * the enqueue gate (18 cpu of 24) but not allocate: the scheduler-service puts
 * an Unschedulable condition on its pod group, the job stays Pending, and its
 * {@code lahar.job-status} record and {@code GET /api/v1/jobs/{ns}/{name}} carry the reason.
 */
@ExtendWith(LaharSystemExtension.class)
class PendingReasonSystemIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aGangThatCannotFitStaysPendingAndItsStatusSaysWhy(LaharSystem system) throws Exception {
        String job = system.submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: no-fit
                spec:
                  minAvailable: 2
                  schedulerName: %s
                  tasks:
                  - name: big
                    replicas: 2
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 1s
                      spec:
                        containers:
                        - name: big
                          image: busybox
                          resources:
                            requests:
                              cpu: "9"
                """.formatted(system.schedulerName));
        // 18 cpu, not the 20 the default queue can take once other tests' queues hold their
        // guarantees: another test's gang waiting in the queue must not turn the reason into the
        // queue's capability instead of the nodes' cpu.
        String key = system.key(job);

        AtomicReference<JobState> explained = new AtomicReference<>();
        try {
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                JobState state = system.records
                        .status(key)
                        .map(s -> s.getStatus().getState())
                        .orElse(null);
                explained.set(state);
                return state != null
                        && state.getMessage() != null
                        && state.getMessage().contains("Insufficient cpu");
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    key + " never said why it is pending; its last state: " + explained.get() + system.logs(), e);
        }
        JobState state = explained.get();
        assertThat(state.getPhase()).isEqualTo("Pending");
        assertThat(state.getReason()).isNotBlank();
        assertThat(state.getMessage())
                .as("the pod group's Unschedulable condition, on the job")
                .startsWith("pod group ")
                .contains(" is ")
                .contains("Insufficient cpu");

        // The REST API shows the same reason (its store may lag the topic by a commit: poll).
        AtomicReference<JsonNode> shown = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    HttpResponse<String> response = HTTP.send(
                            HttpRequest.newBuilder(
                                            system.streamsApp().uri("/api/v1/jobs/" + system.namespace + "/" + job))
                                    .header("Authorization", system.authorization())
                                    .timeout(Duration.ofSeconds(10))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() != 200) {
                        return false;
                    }
                    shown.set(JSON.readTree(response.body()).path("status").path("state"));
                    return shown.get().path("message").asText().contains("Insufficient cpu");
                });
        JobStatusRecord latest = system.records.status(key).orElseThrow();
        assertThat(shown.get().path("phase").asText()).isEqualTo("Pending");
        assertThat(shown.get().path("message").asText())
                .isEqualTo(latest.getStatus().getState().getMessage());
        assertThat(shown.get().path("reason").asText())
                .isEqualTo(latest.getStatus().getState().getReason());
        // It never ran: no transition past Pending.
        assertThat(system.records.transitions(key))
                .allSatisfy(t -> assertThat(t.getTo()).isEqualTo("Pending"));

        // Done with it: a gang that never fits must not stay in the way of the other tests.
        LaharSystem.Cli deleted = system.lahar("job", "delete", job, "-n", system.namespace);
        assertThat(deleted.exit()).as(deleted.toString()).isZero();
        await().atMost(TIMEOUT).until(() -> system.records.deleted(key));
    }
}
