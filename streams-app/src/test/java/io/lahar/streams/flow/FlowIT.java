package io.lahar.streams.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import io.lahar.schema.CreatePod;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.FreshStateDirResource;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The seed's JobFlow a → b → {c, d} → e with {@code jobRetainPolicy: delete}, end to end on the
 * real broker and registry: templates and the flow go through the REST API; the test acts as
 * the scheduler (every new pod group is admitted Inqueue) and the kubelet (every pod the job
 * engine asks for starts Running; the test says when a job's pods succeed), reading the topics
 * the streams-app writes. Everything lives in a namespace of its own (the broker is shared).
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@QuarkusTestResource(FreshStateDirResource.class)
class FlowIT {

    private static final String TOKEN = "lahar-test-token";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @TestHTTPResource("/")
    URL base;

    private final HttpClient http = HttpClient.newHttpClient();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String ns = "fit-" + run;

    @Test
    void theSeedDagRunsEndToEndThroughTheRestApi() throws Exception {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                send("GET", "q/health/ready", null, null).statusCode())
                        .isEqualTo(200));

        // The five templates, each a one-pod nginx job.
        String templates = Files.readString(Path.of("../examples/jobflow-templates.yaml"));
        for (String doc : templates.split("(?m)^---$")) {
            String yaml = inNamespace(doc);
            String name = Manifests.readTrees(yaml)
                    .getFirst()
                    .path("metadata")
                    .path("name")
                    .asText();
            assertThat(send("POST", "api/v1/jobtemplates", yaml, null).statusCode())
                    .isEqualTo(401);
            HttpResponse<String> created = send("POST", "api/v1/jobtemplates", yaml, TOKEN);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(created.headers().firstValue("Location").orElseThrow())
                    .endsWith("/api/v1/jobtemplates/" + ns + "/" + name);
            assertThat(json(created).path("kind").asText()).isEqualTo("JobTemplate");
        }
        JsonNode rows = json(send("GET", "api/v1/jobtemplates?namespace=" + ns, null, TOKEN));
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0).path("name").asText()).isEqualTo("a");
        assertThat(rows.get(0).path("tasks").asInt()).isEqualTo(1);
        assertThat(rows.get(0).path("replicas").asInt()).isEqualTo(1);
        assertThat(rows.get(0).path("minAvailable").asInt()).isEqualTo(1);
        assertThat(rows.get(0).path("queue").asText()).isEqualTo("default");
        assertThat(json(send("GET", "api/v1/jobtemplates/" + ns + "/b", null, TOKEN))
                        .path("spec")
                        .path("tasks")
                        .get(0)
                        .path("name")
                        .asText())
                .isEqualTo("default-nginx");
        assertThat(send("GET", "api/v1/jobtemplates/" + ns + "/nope", null, TOKEN)
                        .statusCode())
                .isEqualTo(404);

        // A cyclic flow is refused with every reason; an unknown flow is 404.
        HttpResponse<String> cyclic = send(
                "POST",
                "api/v1/jobflows",
                inNamespace(Files.readString(Path.of("../examples/invalid-jobflow-cycle.yaml"))),
                TOKEN);
        assertThat(cyclic.statusCode()).as(cyclic.body()).isEqualTo(422);
        List<String> paths = new ArrayList<>();
        json(cyclic).path("violations").forEach(v -> paths.add(v.path("path").asText()));
        assertThat(paths).contains("spec.flows", "spec.flows[4].dependsOn.targets[0]");
        assertThat(send("GET", "api/v1/jobflows/" + ns + "/cyclic", null, TOKEN).statusCode())
                .isEqualTo(404);

        String flow = inNamespace(Files.readString(Path.of("../examples/jobflow.yaml")));
        try (World world = new World()) {
            HttpResponse<String> created = send("POST", "api/v1/jobflows", flow, TOKEN);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(created.headers().firstValue("Location").orElseThrow())
                    .endsWith("/api/v1/jobflows/" + ns + "/test");
            assertThat(json(created).path("spec").path("jobRetainPolicy").asText())
                    .isEqualTo("delete");
            HttpResponse<String> again = send("POST", "api/v1/jobflows", flow, TOKEN);
            assertThat(again.statusCode()).as(again.body()).isEqualTo(409);

            world.until("test-a runs", () -> world.phase("test-a").equals("Running"));
            assertThat(world.jobs()).containsExactly("test-a");
            world.succeed("test-a");
            world.until("test-b runs", () -> world.phase("test-b").equals("Running"));
            world.succeed("test-b");
            // c and d depend on b alone: both are created, and run side by side.
            world.until(
                    "test-c and test-d run together",
                    () -> world.flowStatus() != null
                            && world.flowStatus()
                                    .getStatus()
                                    .getRunningJobs()
                                    .containsAll(List.of("test-c", "test-d")));
            assertThat(world.jobs()).containsExactlyInAnyOrder("test-a", "test-b", "test-c", "test-d");

            world.succeed("test-c");
            world.until(
                    "test-c completed in the flow's status",
                    () -> world.flowStatus().getStatus().getCompletedJobs().contains("test-c"));
            // e waits for d too.
            assertThat(world.flowStatus()
                            .getStatus()
                            .getConditions()
                            .get("test-e")
                            .getPhase())
                    .isEqualTo("Waiting");
            assertThat(world.jobs()).doesNotContain("test-e");

            world.succeed("test-d");
            world.until("test-e runs", () -> world.phase("test-e").equals("Running"));
            world.succeed("test-e");
            world.until(
                    "the flow succeeds",
                    () -> world.flowStatus().getStatus().getState().getPhase().equals("Succeed"));
            // jobRetainPolicy delete: every job the flow created is deleted (job-status tombstones).
            world.until(
                    "the jobs are deleted",
                    () -> world.deletedJobs().containsAll(List.of("test-a", "test-b", "test-c", "test-d", "test-e")));
            JobFlowStatusRecord done = world.flowStatus();
            assertThat(done.getStatus().getCompletedJobs())
                    .containsExactlyInAnyOrder("test-a", "test-b", "test-c", "test-d", "test-e");
        }

        JsonNode list = json(send("GET", "api/v1/jobflows?namespace=" + ns, null, TOKEN));
        assertThat(list).hasSize(1);
        assertThat(list.get(0).path("phase").asText()).isEqualTo("Succeed");
        assertThat(list.get(0).path("jobs").asInt()).isEqualTo(5);
        assertThat(list.get(0).path("completedJobs").asInt()).isEqualTo(5);
        assertThat(json(send("GET", "api/v1/jobflows?namespace=" + ns + "&phase=Running", null, TOKEN)))
                .isEmpty();
        JsonNode one = json(send("GET", "api/v1/jobflows/" + ns + "/test", null, TOKEN));
        assertThat(one.path("status").path("state").path("phase").asText()).isEqualTo("Succeed");
        assertThat(one.path("status").path("jobStatusList")).hasSize(5);
        assertThat(one.path("status")
                        .path("conditions")
                        .path("test-e")
                        .path("phase")
                        .asText())
                .isEqualTo("Completed");

        String deleteId = UUID.randomUUID().toString();
        HttpResponse<String> deleted = send("DELETE", "api/v1/jobflows/" + ns + "/test", null, TOKEN, deleteId);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(json(deleted).path("accepted").asBoolean()).isTrue();
        assertThat(json(send("DELETE", "api/v1/jobflows/" + ns + "/test", null, TOKEN, deleteId))
                        .path("requestId")
                        .asText())
                .isEqualTo(deleteId);
        assertThat(send("GET", "api/v1/jobflows/" + ns + "/test", null, TOKEN).statusCode())
                .isEqualTo(404);
        assertThat(send("DELETE", "api/v1/jobflows/" + ns + "/test", null, TOKEN)
                        .statusCode())
                .isEqualTo(404);
        HttpResponse<String> template = send("DELETE", "api/v1/jobtemplates/" + ns + "/e", null, TOKEN);
        assertThat(template.statusCode()).as(template.body()).isEqualTo(200);
        assertThat(send("GET", "api/v1/jobtemplates/" + ns + "/e", null, TOKEN).statusCode())
                .isEqualTo(404);
    }

    @Test
    void aJobAdmissionRefusesFailsItsFlowAndAFlowWithoutItsTemplateIsAnsweredAfterTheGrace() throws Exception {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                send("GET", "q/health/ready", null, null).statusCode())
                        .isEqualTo(200));
        String template = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: lost
                  namespace: %s
                spec:
                  minAvailable: 1
                  queue: no-such-queue-%s
                  tasks:
                  - replicas: 1
                    name: worker
                    template:
                      spec:
                        containers:
                        - image: busybox
                          name: main
                        restartPolicy: Never
                """.formatted(ns, run);
        HttpResponse<String> t = send("POST", "api/v1/jobtemplates", template, TOKEN);
        assertThat(t.statusCode()).as(t.body()).isEqualTo(201);
        try (World world = new World()) {
            // Posted right after its template: the flow is admitted even if the template is not visible to it yet.
            HttpResponse<String> created = send("POST", "api/v1/jobflows", """
                    apiVersion: flow.volcano.sh/v1alpha1
                    kind: JobFlow
                    metadata:
                      name: refused
                      namespace: %s
                    spec:
                      flows:
                      - name: lost
                    """.formatted(ns), TOKEN);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            // Job admission refuses the job (its queue does not exist): the flow learns it and fails.
            world.until(
                    "the flow fails",
                    () -> world.flowStatus() != null
                            && world.flowStatus()
                                    .getStatus()
                                    .getState()
                                    .getPhase()
                                    .equals("Failed"));
            assertThat(world.flowStatus().getStatus().getFailedJobs()).containsExactly("refused-lost");
            assertThat(world.flowStatus()
                            .getStatus()
                            .getConditions()
                            .get("refused-lost")
                            .getMessage())
                    .contains("spec.queue")
                    .contains("no-such-queue-" + run);
            assertThat(world.jobs()).as("the job was never created").isEmpty();
        }
        // A template that never comes: the answer waits out the grace, then names it.
        HttpResponse<String> orphan = send("POST", "api/v1/jobflows", """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: orphan
                  namespace: %s
                spec:
                  flows:
                  - name: ghost
                """.formatted(ns), TOKEN);
        assertThat(orphan.statusCode()).as(orphan.body()).isEqualTo(422);
        assertThat(json(orphan).path("violations").get(0).path("path").asText()).isEqualTo("spec.flows[0].name");
        assertThat(json(orphan).path("violations").get(0).path("message").asText())
                .contains("jobtemplate \"ghost\" not found");
    }

    private String inNamespace(String yaml) {
        return yaml.replaceAll("(?m)^  namespace: \\S+\\n", "")
                .replaceFirst("(?m)^metadata:\\n", "metadata:\n  namespace: " + ns + "\n");
    }

    /**
     * The topics of this test's namespace, and the scheduler and kubelet for its jobs: a new pod
     * group is admitted Inqueue, a pod the engine creates starts Running.
     */
    private final class World implements AutoCloseable {
        private final KafkaConsumer<String, byte[]> consumer;
        private final KafkaProducer<String, SpecificRecord> producer;
        private final Map<String, Deserializer<?>> decoders = new HashMap<>();
        private final Map<String, String> phases = new HashMap<>();
        private final Set<String> deleted = new HashSet<>();
        private final Set<String> admitted = new HashSet<>();
        private final Map<String, List<CreatePod>> pods = new HashMap<>();
        private JobFlowStatusRecord flowStatus;

        World() {
            RegistrySerdes serdes = new RegistrySerdes(registryUrl);
            decoders.put(Topics.POD_GROUPS.name(), serdes.value(PodGroup.class).deserializer());
            decoders.put(
                    Topics.POD_INTENTS.name(), serdes.value(PodIntent.class).deserializer());
            decoders.put(
                    Topics.JOB_STATUS.name(),
                    serdes.value(JobStatusRecord.class).deserializer());
            decoders.put(
                    Topics.FLOW_STATUS.name(),
                    serdes.value(JobFlowStatusRecord.class).deserializer());
            consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrapServers,
                            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            "read_committed"),
                    new StringDeserializer(),
                    new ByteArrayDeserializer());
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : decoders.keySet()) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Serializer<SpecificRecord> values =
                    (Serializer) serdes.value(PodEvent.class).serializer();
            producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrapServers,
                            ProducerConfig.ACKS_CONFIG,
                            "all"),
                    new StringSerializer(),
                    values);
        }

        String phase(String job) {
            return phases.getOrDefault(job, "");
        }

        /** The jobs that exist or existed, by the status the job engine published. */
        Set<String> jobs() {
            return phases.keySet();
        }

        Set<String> deletedJobs() {
            return deleted;
        }

        JobFlowStatusRecord flowStatus() {
            return flowStatus;
        }

        void until(String what, BooleanSupplier condition) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                poll();
                if (condition.getAsBoolean()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not within 60 s: " + what + "; jobs " + phases + ", flow " + flowStatus);
                }
            }
        }

        /** Every pod of the job succeeds (the job then completes). */
        void succeed(String job) {
            for (CreatePod pod : pods.getOrDefault(job, List.of())) {
                podEvent(job, pod, "Succeeded");
            }
            until(job + " completes", () -> phase(job).equals("Completed"));
        }

        private void poll() {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.key() == null || !r.key().startsWith(ns + "/")) {
                    continue;
                }
                String name = r.key().substring(ns.length() + 1);
                Object value =
                        r.value() == null ? null : decoders.get(r.topic()).deserialize(r.topic(), r.value());
                switch (value) {
                    case null -> {
                        if (r.topic().equals(Topics.JOB_STATUS.name())) {
                            deleted.add(name);
                        }
                    }
                    case JobStatusRecord s ->
                        phases.put(name, s.getStatus().getState().getPhase());
                    case JobFlowStatusRecord f -> flowStatus = f;
                    case PodGroup g -> {
                        if (g.getStatus().getPhase().equals("Pending") && admitted.add(name)) {
                            send(
                                    r.key(),
                                    SchedulerDecision.newBuilder()
                                            .setNamespace(ns)
                                            .setJob(name)
                                            .setPodGroup(g.getName())
                                            .setEpoch(1)
                                            .setTime(Instant.now())
                                            .setDecision(PodGroupStatus.newBuilder()
                                                    .setPhase("Inqueue")
                                                    .build())
                                            .build());
                        }
                    }
                    case PodIntent i -> {
                        if (i.getIntent() instanceof CreatePod c) {
                            pods.computeIfAbsent(name, k -> new ArrayList<>()).add(c);
                            podEvent(name, c, "Running");
                        }
                    }
                    default -> {}
                }
            }
        }

        private void podEvent(String job, CreatePod pod, String phase) {
            send(
                    ns + "/" + job,
                    PodEvent.newBuilder()
                            .setNamespace(ns)
                            .setJob(job)
                            .setPod(pod.getPod())
                            .setTask(pod.getTask())
                            .setIndex(pod.getIndex())
                            .setJobVersion(pod.getJobVersion())
                            .setPhase(phase)
                            .setContainers(
                                    phase.equals("Succeeded")
                                            ? List.of(io.lahar.schema.ContainerStatus.newBuilder()
                                                    .setName("nginx")
                                                    .setExitCode(0)
                                                    .build())
                                            : List.of())
                            .setDeleted(false)
                            .setTime(Instant.now())
                            .build());
        }

        private void send(String key, SpecificRecord value) {
            String topic = value instanceof PodEvent ? Topics.POD_EVENTS.name() : Topics.SCHEDULER_DECISIONS.name();
            try {
                producer.send(new ProducerRecord<>(topic, key, value)).get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            consumer.close();
            producer.close();
        }
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Manifests.jsonMapper().readTree(response.body());
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return send(method, path, body, token, null);
    }

    private HttpResponse<String> send(String method, String path, String body, String token, String requestId)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.toString() + path))
                .timeout(Duration.ofSeconds(60))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/yaml");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (requestId != null) {
            request.header("X-Lahar-Request-Id", requestId);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
