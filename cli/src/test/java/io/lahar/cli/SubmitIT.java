package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.LaharTopology;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lahar submit} against the real topology on the test broker: every hostile job gets its
 * reason and a non-zero exit, never a wait for an answer that does not come; unknown fields are
 * the engine's warnings under {@code --validate=warn}.
 */
@WithLaharInfra
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubmitIT {

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private KafkaStreams streams;
    private String bootstrap;
    private String registry;

    @TempDir
    Path tmp;

    @BeforeAll
    void start(LaharInfra infra, @TempDir Path stateDir) {
        bootstrap = infra.bootstrapServers();
        registry = infra.registryUrl();
        TopicBootstrap.ensureTopics(bootstrap);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "lahar-submit-it-" + run);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        startAtTheEnd("lahar-submit-it-" + run);
        streams = new KafkaStreams(LaharTopology.build(new RegistrySerdes(registry)), props);
        streams.start();
    }

    /** Only what this test sends: other tests' inputs on the shared broker are not this app's to answer. */
    private void startAtTheEnd(String groupId) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        groupId,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (Topics.TopicSpec topic : List.of(
                    Topics.JOB_COMMANDS,
                    Topics.POD_EVENTS,
                    Topics.SCHEDULER_DECISIONS,
                    Topics.CLOCK,
                    Topics.FLOW_COMMANDS,
                    Topics.FLOW_CLOCK)) {
                for (int p = 0; p < topic.partitions(); p++) {
                    partitions.add(new TopicPartition(topic.name(), p));
                }
            }
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            consumer.endOffsets(partitions).forEach((tp, end) -> ends.put(tp, new OffsetAndMetadata(end)));
            consumer.commitSync(ends);
        }
    }

    @AfterAll
    void stop() {
        streams.close(Duration.ofSeconds(20));
    }

    private AdmitCommandTest.Run submit(String manifest, String... extra) throws IOException {
        Path file = Files.writeString(tmp.resolve(UUID.randomUUID() + ".yaml"), manifest);
        String[] args = new String[extra.length + 2];
        System.arraycopy(extra, 0, args, 2, extra.length);
        args[0] = "--timeout";
        args[1] = "120";
        return SubmitCommandTest.submit(file, bootstrap, registry, args);
    }

    private String job(String name, long replicas, String payload, String extraSpec) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s-%s
                spec:
                %s  tasks:
                  - name: worker
                    replicas: %d
                    template:
                      spec:
                        containers:
                        - name: c
                          image: busybox
                          args: ["%s"]
                """.formatted(name, run, extraSpec, replicas, payload);
    }

    @Test
    void aJobIsAcceptedAndItsUnknownFieldsAreWarningsUnderWarn() throws IOException {
        AdmitCommandTest.Run r = submit(job("warned", 2, "", "  minAvailabel: 1\n"), "--validate=warn");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Created Job: default/warned-" + run);
        assertThat(r.err()).contains("Warning: unknown field \"spec.minAvailabel\" [Job default/warned-" + run + "]");
    }

    @Test
    void replicasPastThePodLimitAreRejectedWithTheReason() throws IOException {
        AdmitCommandTest.Run r = submit(job("huge", Integer.MAX_VALUE, "", ""));
        assertThat(r.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(r.out()).contains("Rejected Job: default/huge-" + run);
        assertThat(r.err())
                .contains("error: spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job"
                        + " (was 2147483647) [Job default/huge-" + run + "]");
    }

    @Test
    void aJobWhoseStateWouldNotFitIsRejectedWithItsSize() throws IOException {
        AdmitCommandTest.Run r = submit(job("fat", 1, "x".repeat(450_000), ""));
        assertThat(r.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(r.err()).contains("error: manifest: too large: the job's state would be ");
    }

    @Test
    void aCommandTooLargeForARecordIsReportedAtOnce() throws IOException {
        AdmitCommandTest.Run r = submit(job("huger", 1, "x".repeat(1_100_000), ""));
        assertThat(r.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(r.err())
                .contains("error: job default/huger-" + run + ": not sent: the command is too large for one"
                        + " Kafka record");
    }
}
