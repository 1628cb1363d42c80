package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.core.job.JobInfo;
import io.lahar.core.job.PodPhase;
import io.lahar.schema.CreatePod;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.job.JobStore;
import io.lahar.streams.kafka.Guards;
import io.lahar.streams.kafka.StreamThreadFailures;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs store's commit hook on the real broker, exactly-once, a commit every 100 ms: once the
 * streams-app has committed the offsets of a burst of pod events, the transaction that committed
 * them holds the job's entry as of the burst in the jobs store's changelog, and its status on
 * {@code lahar.job-status} (both read committed). Nothing else comes after the burst, so no later
 * commit can have carried them: should Kafka Streams stop calling the hook before it commits (a
 * Kafka upgrade: the hook is an internal interface), the entry and the status would wait for a
 * checkpoint (under exactly-once, a clean close) and this test fails at the first burst.
 */
@WithLaharInfra
class CommitHookIT {

    /** How long the broker may take to show a committed transaction to a read-committed reader. */
    private static final Duration MARKERS = Duration.ofSeconds(15);

    @TempDir
    Path stateDir;

    @Test
    void theCommitOfABurstsOffsetsCarriesItsEntryAndItsStatus(LaharInfra infra) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String app = "commit-hook-" + run;
        String job = "hook-" + run;
        String key = Topics.jobKey("default", job);
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Guards guards = new Guards(serdes);
        KafkaStreams streams = new KafkaStreams(LaharTopology.build(guards), BrokerApp.config(infra, app, stateDir));
        streams.setUncaughtExceptionHandler(new StreamThreadFailures(guards));
        try (KafkaProducer<String, SpecificRecord> producer = BrokerApp.producer(infra, serdes);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers()));
                KeyedReader<JobStatusRecord> statuses = new KeyedReader<>(
                        infra.bootstrapServers(),
                        infra.registryUrl(),
                        Topics.JOB_STATUS.name(),
                        JobStatusRecord.class,
                        key);
                KeyedReader<PodGroup> podGroups = new KeyedReader<>(
                        infra.bootstrapServers(), infra.registryUrl(), Topics.POD_GROUPS.name(), PodGroup.class, key);
                KeyedReader<PodIntent> intents = new KeyedReader<>(
                        infra.bootstrapServers(),
                        infra.registryUrl(),
                        Topics.POD_INTENTS.name(),
                        PodIntent.class,
                        key)) {
            streams.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            try (Changelog changelog = new Changelog(infra, app + "-" + JobStore.NAME + "-changelog", key)) {
                long now = System.currentTimeMillis();
                BrokerApp.send(
                        producer,
                        Topics.JOB_COMMANDS,
                        key,
                        LifecycleScript.submit("hook-" + run, job, LifecycleScript.tfJob(job), now));
                PodGroup group = podGroups.await(g -> g != null, 1).getFirst();
                BrokerApp.send(
                        producer,
                        Topics.SCHEDULER_DECISIONS,
                        key,
                        LifecycleScript.podGroupPhase(job, group.getName(), "Inqueue", now));
                List<CreatePod> pods = intents.await(i -> i.getIntent() instanceof CreatePod, 3).stream()
                        .map(i -> (CreatePod) i.getIntent())
                        .toList();

                burst(producer, admin, app, key, job, pods, "Running", null, now + 1_000);
                assertCommitted(changelog, statuses, PodPhase.Running, "Running", 3, 0);

                burst(producer, admin, app, key, job, pods, "Succeeded", 0, now + 2_000);
                assertCommitted(changelog, statuses, PodPhase.Succeeded, "Completed", 0, 3);
            }
        } finally {
            streams.close(Duration.ofSeconds(30));
            guards.close();
        }
    }

    /** Every pod of the job in {@code phase} at once, then waits until the app has committed their offsets. */
    private static void burst(
            KafkaProducer<String, SpecificRecord> producer,
            Admin admin,
            String app,
            String key,
            String job,
            List<CreatePod> pods,
            String phase,
            Integer exitCode,
            long time)
            throws Exception {
        RecordMetadata last = null;
        for (CreatePod p : pods) {
            last = BrokerApp.send(
                    producer,
                    Topics.POD_EVENTS,
                    key,
                    LifecycleScript.podEvent(
                            job, p.getTask(), p.getIndex(), p.getJobVersion(), phase, exitCode, false, time));
        }
        TopicPartition partition = new TopicPartition(last.topic(), last.partition());
        long end = last.offset() + 1;
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(app)
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .get(partition);
            return committed != null && committed.offset() >= end;
        });
    }

    /** What the commit of the burst's offsets committed: the entry in the changelog, the status on the status topic. */
    private static void assertCommitted(
            Changelog changelog,
            KeyedReader<JobStatusRecord> statuses,
            PodPhase podPhase,
            String jobPhase,
            int running,
            int succeeded) {
        await().atMost(MARKERS).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            JobInfo entry = changelog.latest();
            assertThat(entry)
                    .as("the job's entry is in the jobs store's changelog, committed with the burst"
                            + " (Kafka Streams no longer calls the commit hook before it commits?)")
                    .isNotNull();
            assertThat(entry.pods().values())
                    .as("the changelog's entry is the one of the burst's commit")
                    .hasSize(3)
                    .allSatisfy(p -> assertThat(p.phase()).isEqualTo(podPhase));
            statuses.pollFor(Duration.ofMillis(100));
            List<JobStatusRecord> seen = statuses.all();
            assertThat(seen).as("a status committed with the burst").isNotEmpty();
            JobStatusRecord last = seen.getLast();
            assertThat(last.getStatus().getState().getPhase()).isEqualTo(jobPhase);
            assertThat(last.getStatus().getRunning()).isEqualTo(running);
            assertThat(last.getStatus().getSucceeded()).isEqualTo(succeeded);
        });
    }

    /** The app's jobs store changelog, read committed, one key. */
    private static final class Changelog implements AutoCloseable {
        private final KafkaConsumer<String, byte[]> consumer;
        private final String key;
        private JobInfo latest;

        Changelog(LaharInfra infra, String topic, String key) {
            this.key = key;
            this.consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            infra.bootstrapServers(),
                            ConsumerConfig.GROUP_ID_CONFIG,
                            "it-" + UUID.randomUUID(),
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest",
                            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            "read_committed"),
                    new StringDeserializer(),
                    new ByteArrayDeserializer());
            consumer.subscribe(List.of(topic));
        }

        JobInfo latest() {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (key.equals(r.key()) && r.value() != null) {
                    latest = new JobStore.Codec().decode(r.value()).info();
                }
            }
            return latest;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
