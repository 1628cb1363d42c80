package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Admission end to end on the real broker and registry: a plain Kafka producer with the Avro
 * serde submits jobs; the streams-app answers each on the results topic, publishes the admitted
 * job's status, and sends undecodable bytes to the dead-letter topic without stopping.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@QuarkusTestResource(FreshStateDirResource.class)
class JobAdmissionIT {

    // From the application's configuration, which the test resource filled in: the test class
    // lives in Quarkus' class loader, so a static handle to the infrastructure would be another one.
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void validAndInvalidJobsGetResultsAndGarbageGoesToTheDeadLetterTopic() throws Exception {
        String valid = "tf-" + run;
        String invalid = "bad-" + run;
        String afterGarbage = "after-" + run;
        String tfJob = Files.readString(Path.of("../examples/tf-job.yaml"));

        try (KafkaProducer<String, JobCommand> producer =
                        new KafkaProducer<>(producerConfig(), new StringSerializer(), avroSerializer());
                KafkaProducer<String, byte[]> raw =
                        new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(submit(valid, tfJob.replace("name: tf-job", "name: " + valid)))
                    .get();
            producer.send(submit(invalid, """
                    apiVersion: batch.volcano.sh/v1alpha1
                    kind: Job
                    metadata:
                      name: %s
                    spec:
                      minAvailable: 9
                      tasks:
                      - name: worker
                        replicas: 2
                        template:
                          spec:
                            containers:
                            - name: w
                              image: busybox
                      - name: worker
                        replicas: 1
                        template:
                          spec:
                            containers:
                            - name: w
                              image: busybox
                    """.formatted(invalid))).get();
            raw.send(new ProducerRecord<>(
                            Topics.JOB_COMMANDS.name(),
                            "default/garbage-" + run,
                            "this is not avro".getBytes(StandardCharsets.UTF_8)))
                    .get();
            producer.send(submit(afterGarbage, tfJob.replace("name: tf-job", "name: " + afterGarbage)))
                    .get();
        }

        List<CommandResult> results = await(
                Topics.COMMAND_RESULTS.name(),
                CommandResult.class,
                r -> r.getName().endsWith(run),
                3);
        CommandResult ok = byName(results, valid);
        assertThat(ok.getAccepted()).isTrue();
        assertThat(ok.getViolations()).isEmpty();
        assertThat(ok.getManifest()).contains("\"queue\":\"default\"").contains("\"maxRetry\":3");

        CommandResult rejected = byName(results, invalid);
        assertThat(rejected.getAccepted()).isFalse();
        assertThat(rejected.getViolations())
                .extracting(v -> v.getPath() + ": " + v.getMessage())
                .anySatisfy(v -> assertThat(v).startsWith("spec.tasks[1].name").contains("worker"))
                .anySatisfy(v -> assertThat(v).startsWith("spec.minAvailable"));

        assertThat(byName(results, afterGarbage).getAccepted()).isTrue();

        List<DeadLetter> letters = await(
                Topics.DEAD_LETTERS.name(),
                DeadLetter.class,
                d -> d.getKey() != null
                        && StandardCharsets.UTF_8
                                .decode(d.getKey().duplicate())
                                .toString()
                                .equals("default/garbage-" + run),
                1);
        DeadLetter letter = letters.get(0);
        assertThat(letter.getTopic()).isEqualTo(Topics.JOB_COMMANDS.name());
        assertThat(StandardCharsets.UTF_8.decode(letter.getValue().duplicate()).toString())
                .isEqualTo("this is not avro");
        assertThat(letter.getError()).isNotBlank();

        List<JobStatusRecord> statuses = await(
                Topics.JOB_STATUS.name(),
                JobStatusRecord.class,
                s -> s.getName().equals(valid),
                1);
        JobStatusRecord status = statuses.get(0);
        assertThat(status.getStatus().getState().getPhase()).isEqualTo("Pending");
        assertThat(status.getStatus().getMinAvailable()).isEqualTo(6);
        assertThat(status.getQueue()).isEqualTo("default");
        assertThat(status.getManifest()).contains("ps-img");
    }

    private ProducerRecord<String, JobCommand> submit(String name, String manifest) {
        JobCommand command = JobCommand.newBuilder()
                .setRequestId(UUID.randomUUID().toString())
                .setSender("JobAdmissionIT")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.parse("2026-11-29T10:00:00Z"))
                .setCommand(new SubmitJob(manifest))
                .build();
        return new ProducerRecord<>(Topics.JOB_COMMANDS.name(), Topics.jobKey("default", name), command);
    }

    private static CommandResult byName(List<CommandResult> results, String name) {
        return results.stream()
                .filter(r -> r.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private <T extends SpecificRecord> List<T> await(String topic, Class<T> type, Predicate<T> wanted, int count) {
        Map<String, Object> config = clientConfig();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<T> found = new ArrayList<>();
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                new RegistrySerdes(registryUrl).value(type).deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (found.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, T> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && wanted.test(record.value())) {
                        found.add(record.value());
                    }
                }
            }
        }
        assertThat(found).as("records on %s", topic).hasSizeGreaterThanOrEqualTo(count);
        return found;
    }

    private Map<String, Object> clientConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", bootstrapServers);
        return config;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> config = clientConfig();
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return config;
    }

    /**
     * The streams-app's own serde (a registry call bounded in time and retried): Apicurio's serializer
     * waits for the registry's answer without a bound, and a lost answer once held this test for good.
     */
    private Serializer<JobCommand> avroSerializer() {
        return new RegistrySerdes(registryUrl).value(JobCommand.class).serializer();
    }
}
