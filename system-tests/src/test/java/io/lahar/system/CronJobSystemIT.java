package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Volcano's CronJob as a Volcano user drives it with kubectl: a batch.volcano.sh CronJob CR created
 * through the embedded cluster's Kubernetes API becomes a CronJob command (the bridge); when its
 * scheduled minute comes on {@code lahar.cron-clock} the CronJob engine creates the job of that
 * minute through job admission, the job runs on the simulated nodes and completes; the CR's status
 * shows Volcano's lastScheduleTime and lastSuccessfulTime; deleting the CR deletes the job. The
 * same through {@code lahar cronjob} and the REST API: a schedule that does not parse is refused
 * with its path, suspend and resume, the job of the scheduled minute, delete. A
 * minute is long for a test: the test writes the tick of the scheduled minute itself, as the
 * ticker would when the minute comes (the CronJob engine has a clock topic of its own, so no
 * other engine sees it).
 */
@ExtendWith(LaharSystemExtension.class)
class CronJobSystemIT {

    static final ResourceDefinitionContext CRON_JOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh")
            .withVersion("v1alpha1")
            .withKind("CronJob")
            .withPlural("cronjobs")
            .withNamespaced(true)
            .build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aCronJobCrCreatesTheJobOfItsMinuteAndTheCrShowsIt(LaharSystem system) throws Exception {
        String name = "sys-cron";
        system.kube()
                .genericKubernetesResources(CRON_JOBS)
                .inNamespace(system.namespace)
                .resource(Serialization.unmarshal(manifest(system, name, "* * * * *"), GenericKubernetesResource.class))
                .create();

        // The engine knows it once the REST API shows it, with its next scheduled minute.
        JsonNode cronJob = await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> get(system, name),
                        c -> c != null && c.path("status").hasNonNull("nextScheduleTime"));
        Instant minute =
                Instant.parse(cronJob.path("status").path("nextScheduleTime").asText());
        tick(system, minute.plusSeconds(1));

        String job = name + "-" + minute.getEpochSecond() / 60;
        try {
            JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Completed", TIMEOUT);
        } catch (AssertionError e) {
            throw new AssertionError(
                    "the job of " + minute + " did not complete; the CronJob: " + get(system, name) + system.logs(), e);
        }
        GenericKubernetesResource done;
        try {
            done = await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> system.kube()
                                    .genericKubernetesResources(CRON_JOBS)
                                    .inNamespace(system.namespace)
                                    .withName(name)
                                    .get(),
                            cr -> status(cr).get("lastSuccessfulTime") != null);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "the CronJob CR shows no success; the engine's view: " + get(system, name) + system.logs(), e);
        }
        assertThat(status(done))
                .as("the CR's status")
                .containsEntry("lastScheduleTime", minute.toString())
                .doesNotContainKey("active");

        LaharSystem.Cli view = system.lahar("cronjob", "view", name, "-n", system.namespace);
        assertThat(view.exit()).as(view.toString()).isZero();
        assertThat(view.out()).contains(job, "Completed", "SuccessfulCreate", "SawCompletedJob");

        system.kube()
                .genericKubernetesResources(CRON_JOBS)
                .inNamespace(system.namespace)
                .withName(name)
                .delete();
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> system.records.deleted(system.key(job)));
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> get(system, name) == null);
    }

    @Test
    void theCliCreatesSuspendsResumesAndDeletesACronJobThroughTheRestApi(LaharSystem system) throws Exception {
        String name = "cli-cron";
        Path bad = Files.writeString(system.dir.resolve("cron-bad.yaml"), manifest(system, name, "61 * * * *"));
        LaharSystem.Cli refused = system.lahar("cronjob", "create", "-f", bad.toString(), "-n", system.namespace);
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).as(refused.toString()).contains("spec.schedule", "not a valid cron expression");
        assertThat(get(system, name)).isNull();

        Path good = Files.writeString(system.dir.resolve("cron.yaml"), manifest(system, name, "* * * * *"));
        LaharSystem.Cli created = system.lahar("cronjob", "create", "-f", good.toString(), "-n", system.namespace);
        assertThat(created.exit()).as(created.toString()).isZero();
        LaharSystem.Cli list = system.lahar("cronjob", "list", "-n", system.namespace);
        assertThat(list.out()).as(list.toString()).contains(name, "* * * * *");

        LaharSystem.Cli suspended = system.lahar("cronjob", "suspend", name, "-n", system.namespace);
        assertThat(suspended.exit()).as(suspended.toString()).isZero();
        JsonNode off = await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> get(system, name),
                        c -> c != null && c.path("spec").path("suspend").asBoolean());
        assertThat(off.path("status").has("nextScheduleTime"))
                .as("a suspended CronJob is not due")
                .isFalse();
        LaharSystem.Cli resumed = system.lahar("cronjob", "resume", name, "-n", system.namespace);
        assertThat(resumed.exit()).as(resumed.toString()).isZero();
        JsonNode on = await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> get(system, name),
                        c -> c != null
                                && !c.path("spec").path("suspend").asBoolean()
                                && c.path("status").hasNonNull("nextScheduleTime"));

        Instant minute =
                Instant.parse(on.path("status").path("nextScheduleTime").asText());
        tick(system, minute.plusSeconds(1));
        String job = name + "-" + minute.getEpochSecond() / 60;
        JsonNode ran = await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> get(system, name),
                        c -> c != null
                                && c.path("status").path("jobs").toString().contains(job));
        assertThat(ran.path("status").path("lastScheduleTime").asText()).isEqualTo(minute.toString());

        LaharSystem.Cli deleted = system.lahar("cronjob", "delete", name, "-n", system.namespace);
        assertThat(deleted.exit()).as(deleted.toString()).isZero();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> get(system, name) == null);
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> system.records.deleted(system.key(job)));
        LaharSystem.Cli gone = system.lahar("cronjob", "suspend", name, "-n", system.namespace);
        assertThat(gone.exit()).as(gone.toString()).isEqualTo(1);
    }

    /** A CronJob whose job runs one pod for a simulated second on the system's nodes. */
    private static String manifest(LaharSystem system, String name, String schedule) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  schedule: "%s"
                  concurrencyPolicy: Forbid
                  jobTemplate:
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
                """.formatted(name, system.namespace, schedule, system.schedulerName);
    }

    /** The CronJob as the REST API shows it; null while it is unknown. */
    private static JsonNode get(LaharSystem system, String name) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(system.streamsApp().uri("/api/v1/cronjobs/" + system.namespace + "/" + name))
                        .header("Authorization", system.authorization())
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    /** The time of the last tick this JVM wrote, which the engine's clock has seen. */
    private static Instant lastTick = Instant.EPOCH;

    /**
     * What the ticker writes when the time comes: a Tick into every partition of lahar.cron-clock.
     * The engine ignores a tick that is not later than its clock, and both tests may tick the same
     * minute (they run within one): a repeated time moves on by a millisecond, still after the
     * scheduled minute, so the tick is not taken for a repeat.
     */
    private static synchronized void tick(LaharSystem system, Instant scheduledTime) throws Exception {
        Instant time = scheduledTime.isAfter(lastTick) ? scheduledTime : lastTick.plusMillis(1);
        lastTick = time;
        @SuppressWarnings("resource")
        KafkaProducer<String, Tick> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, system.infra.bootstrapServers()),
                new StringSerializer(),
                system.serdes.value(Tick.class).serializer());
        try (producer) {
            for (int p = 0; p < Topics.CRON_CLOCK.partitions(); p++) {
                producer.send(new ProducerRecord<>(Topics.CRON_CLOCK.name(), p, Topics.clockKey(p), new Tick(time)))
                        .get();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(GenericKubernetesResource cr) {
        return cr != null && cr.getAdditionalProperties().get("status") instanceof Map<?, ?> m
                ? (Map<String, Object>) m
                : Map.of();
    }
}
