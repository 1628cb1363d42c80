package io.lahar.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.scheduler.loop.LoopState;
import io.lahar.scheduler.loop.SchedulingLoop;
import io.lahar.scheduler.service.SchedulerService;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The scheduler-service on the real broker and registry: nodes, a queue, two gangs that do not
 * both fit go in; one gang's bindings come out whole, the other gets a PodGroupStatus with the
 * reason it is pending.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
class SchedulerServiceIT {

    // From the application's configuration, which the test resource filled in (a static
    // LaharInfra.shared() here would be another broker: the test class lives in Quarkus' loader).
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @Inject
    SchedulerService service;

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @TestHTTPResource("/q/metrics")
    URI metrics;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void podGroupsInBindingsOutAndTheGangThatDoesNotFitGetsItsReason() throws Exception {
        try (Wire wire = new Wire(bootstrapServers, registryUrl)) {
            Cluster c = new Cluster(wire, run, "volcano");
            // Not Avro: dead-lettered, and the scheduler goes on.
            wire.sendRaw(
                    Topics.POD_GROUPS.name(),
                    Cluster.NAMESPACE + "/garbage-" + run,
                    "not avro".getBytes(StandardCharsets.UTF_8));
            c.nodesAndQueue(2, "4");
            c.gang(0, 3, "2", 0); // 6 cpu of 8
            c.gang(1, 2, "2", 1); // 4 more: only one of the two gangs fits

            List<SchedulerDecision> ds = wire.decisions(
                    c::mine,
                    found -> {
                        Map<String, PodGroupStatus> s = Cluster.lastStatus(found);
                        return s.size() == 2
                                && s.values().stream()
                                        .anyMatch(x -> x.getPhase().equals("Running"))
                                // NotEnoughTasks first, while the group's pods are still arriving.
                                && s.values().stream()
                                        .anyMatch(x -> x.getConditions().stream()
                                                .anyMatch(k -> "NotEnoughResources".equals(k.getReason())));
                    },
                    Duration.ofSeconds(60));

            Map<String, Set<String>> bound = Cluster.boundByJob(ds);
            assertThat(bound).as("exactly one gang is bound, and whole").hasSize(1);
            String boundJob = bound.keySet().iterator().next();
            int size = boundJob.equals(c.job(0)) ? 3 : 2;
            assertThat(bound.get(boundJob)).hasSize(size);
            assertThat(Cluster.binds(ds)).allSatisfy(b -> {
                assertThat(b.getNode()).isIn(c.node(0), c.node(1));
                assertThat(b.getAction()).isEqualTo("allocate");
            });

            String pendingJob = boundJob.equals(c.job(0)) ? c.job(1) : c.job(0);
            PodGroupStatus pending = Cluster.lastStatus(ds).get(pendingJob);
            assertThat(pending.getPhase()).isNotEqualTo("Running");
            assertThat(pending.getConditions()).singleElement().satisfies(k -> {
                assertThat(k.getType()).isEqualTo("Unschedulable");
                assertThat(k.getStatus()).isEqualTo("True");
                assertThat(k.getReason()).isEqualTo("NotEnoughResources");
                assertThat(k.getMessage()).isNotBlank();
            });
            assertThat(ds).allSatisfy(d -> assertThat(d.getEpoch()).isEqualTo(service.epoch()));
            assertThat(service.state()).isEqualTo(LoopState.ACTIVE);

            List<QueueStatus> queue = wire.read(
                    Topics.QUEUE_STATUS.name(),
                    QueueStatus.class,
                    q -> q.getName().equals(c.queue),
                    found -> !found.isEmpty() && found.get(found.size() - 1).getRunning() == 1,
                    Duration.ofSeconds(30));
            QueueStatus last = queue.get(queue.size() - 1);
            assertThat(last.getRunning()).isEqualTo(1);
            assertThat(last.getInqueue()).as("the gang that waits").isEqualTo(1);
            assertThat(last.getAllocated()).containsEntry("cpu", size == 3 ? "6" : "4");

            List<DeadLetter> letters = wire.read(
                    Topics.DEAD_LETTERS.name(),
                    DeadLetter.class,
                    l -> l.getKey() != null
                            && StandardCharsets.UTF_8
                                    .decode(l.getKey().duplicate())
                                    .toString()
                                    .equals(Cluster.NAMESPACE + "/garbage-" + run),
                    found -> !found.isEmpty(),
                    Duration.ofSeconds(30));
            assertThat(letters.get(0).getTopic()).isEqualTo(Topics.POD_GROUPS.name());
            assertThat(letters.get(0).getProcessor()).isEqualTo(SchedulingLoop.PROCESSOR);
            assertThat(letters.get(0).getError()).isNotBlank();
        }

        HttpResponse<String> health = get(ready);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\": \"UP\"").contains("ACTIVE");
        String text = get(metrics).body();
        assertThat(text)
                .contains("lahar_scheduler_session_duration_seconds_count")
                .contains("lahar_scheduler_placements_total")
                .contains("lahar_scheduler_podgroups_pending{reason=\"NotEnoughResources\"")
                .contains("lahar_scheduler_bindings_unconfirmed");
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
