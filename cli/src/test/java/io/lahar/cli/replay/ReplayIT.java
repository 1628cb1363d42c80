package io.lahar.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import io.lahar.cli.ReplayCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.LaharTopology;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay equals live: the real lifecycle topology runs in-process on the test broker over one
 * job's inputs, then {@code lahar replay} reads the same inputs back; its transitions must equal
 * the transitions topic's, record for record (phases, reasons, versions, times, source offsets).
 */
@WithLaharInfra
class ReplayIT {

    @Test
    void replayGivesTheTransitionsTheStreamsAppWrote(LaharInfra infra, @TempDir Path stateDir) throws Exception {
        String bootstrap = infra.bootstrapServers();
        String registry = infra.registryUrl();
        TopicBootstrap.ensureTopics(bootstrap);
        String run = UUID.randomUUID().toString().substring(0, 8);
        String name = "replay-" + run;
        String key = Topics.jobKey("default", name);
        String appId = "lahar-replay-it-" + run;
        // The app starts where the input topics end now: it processes this test's records, and
        // never re-processes (and re-emits) what other tests on the shared broker wrote before.
        startAtTheEnd(bootstrap, appId);

        long t0 = System.currentTimeMillis();
        JobCommand submit = ReplayScript.submit("replay-it-" + run, name, t0);
        int p = InputLog.partitionOf(key, Topics.JOB_PARTITIONS);
        RegistrySerdes serdes = new RegistrySerdes(registry);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Serializer<SpecificRecord> values =
                (Serializer) serdes.value(PodEvent.class).serializer();
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(),
                values)) {
            send(producer, Topics.JOB_COMMANDS, null, t0, key, submit);
            send(producer, Topics.JOB_COMMANDS, null, t0 + 1, key, submit); // a retry: answered, not re-applied
            send(
                    producer,
                    Topics.SCHEDULER_DECISIONS,
                    null,
                    t0 + 2,
                    key,
                    ReplayScript.podGroupPhase(name, ReplayScript.podGroup(submit), 1, "Inqueue", t0 + 2));
            send(producer, Topics.POD_EVENTS, null, t0 + 3, key, ReplayScript.pod(name, "Running", null, t0 + 3));
            send(producer, Topics.CLOCK, p, t0 + 4, Topics.clockKey(p), ReplayScript.tick(t0 + 4));
            send(producer, Topics.POD_EVENTS, null, t0 + 5, key, ReplayScript.pod(name, "Succeeded", 0, t0 + 5));
        }

        List<JobTransition> live;
        try (KafkaStreams streams =
                new KafkaStreams(LaharTopology.build(serdes), streamsConfig(bootstrap, appId, stateDir))) {
            streams.start();
            live = awaitTransitions(bootstrap, serdes, key, "Completed", Duration.ofSeconds(90));
            streams.close(Duration.ofSeconds(20));
        }

        InputLog.Log log = InputLog.read(
                io.lahar.schema.KafkaSettings.plaintext(bootstrap),
                new io.lahar.schema.serde.RegistrySerdes(registry),
                key,
                Duration.ofSeconds(30));
        List<JobTransition> replayed =
                ReplayCommand.transitions(ReplayCommand.replay("default", name, 60_000, log.queues(), log.inputs()));
        assertThat(live)
                .extracting(JobTransition::getTo)
                .contains("Pending", "Running")
                .endsWith("Completed");
        assertThat(replayed).containsExactlyElementsOf(live);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lahar.run(
                new String[] {"replay", "--bootstrap", bootstrap, "--registry", registry, "--job", key, "--explain"},
                new PrintWriter(out),
                new PrintWriter(err));
        assertThat(code).as(err.toString()).isZero();
        String printed = out.toString();
        assertThat(printed)
                .contains(Topics.JOB_COMMANDS.name() + "/" + p + "@")
                .contains("command: SubmitJob replay-it-" + run)
                .contains("(a retry: answered from the recent verdicts, nothing applied)")
                .contains("  -> (new) -> Pending (")
                .contains("-> Completed (")
                .contains("     event ");
        assertThat(printed.lines().filter(l -> l.startsWith("  -> ")).count()).isEqualTo(live.size());

        StringWriter none = new StringWriter();
        StringWriter noneErr = new StringWriter();
        int unknown = Lahar.run(
                new String[] {
                    "replay", "--bootstrap", bootstrap, "--registry", registry, "--job", key + "-never-submitted"
                },
                new PrintWriter(none),
                new PrintWriter(noneErr));
        assertThat(unknown).as("a job the topics never saw").isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(noneErr.toString()).contains("no such job");
        assertThat(none.toString()).isEmpty();
    }

    private static void send(
            KafkaProducer<String, SpecificRecord> producer,
            Topics.TopicSpec topic,
            Integer partition,
            long timestamp,
            String key,
            SpecificRecord value)
            throws Exception {
        producer.send(new ProducerRecord<>(topic.name(), partition, timestamp, key, value))
                .get();
    }

    private static void startAtTheEnd(String bootstrap, String groupId) {
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
            List<TopicPartition> partitions = InputLog.TOPICS.stream()
                    .flatMap(t -> IntStream.range(0, Topics.JOB_PARTITIONS).mapToObj(i -> new TopicPartition(t, i)))
                    .toList();
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            consumer.endOffsets(partitions).forEach((tp, end) -> ends.put(tp, new OffsetAndMetadata(end)));
            consumer.commitSync(ends);
        }
    }

    private static Properties streamsConfig(String bootstrap, String appId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return props;
    }

    /** The job's transitions on the topic, once one of them reaches {@code phase}. */
    private static List<JobTransition> awaitTransitions(
            String bootstrap, RegistrySerdes serdes, String key, String phase, Duration timeout) {
        List<JobTransition> seen = new ArrayList<>();
        try (KafkaConsumer<String, JobTransition> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                serdes.value(JobTransition.class).deserializer())) {
            // The job's transitions are all in its partition, in the order written.
            TopicPartition tp =
                    new TopicPartition(Topics.JOB_TRANSITIONS.name(), InputLog.partitionOf(key, Topics.JOB_PARTITIONS));
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline
                    && seen.stream().noneMatch(t -> t.getTo().equals(phase))) {
                for (ConsumerRecord<String, JobTransition> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(r.key()) && r.value() != null) {
                        seen.add(r.value());
                    }
                }
            }
        }
        return seen;
    }
}
