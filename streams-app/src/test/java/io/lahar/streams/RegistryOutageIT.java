package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.JobInfo;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.Queue;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.job.JobStore;
import io.lahar.streams.kafka.Guards;
import io.lahar.streams.kafka.StreamThreadFailures;
import io.lahar.streams.kafka.StreamsReadiness;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.TcpProxy;
import io.lahar.testkit.WithLaharInfra;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transient is not poison, on the real broker, with the schema registry behind a proxy the test
 * cuts: a streams-app started while the registry is away waits for it (its global queue store too),
 * is not ready meanwhile, never in ERROR, dead-letters nothing, and once the registry is back it
 * becomes ready and admits a job into the queue read during the outage (issue: "queue relia-q not
 * found" 60 s later). An outage while it runs holds the record that needs the registry where it is,
 * and applies it once the registry answers. What the app did is read from its own jobs store: the
 * shared broker's topics may have other readers (a Quarkus streams-app of an earlier test class).
 */
@WithLaharInfra
class RegistryOutageIT {

    @TempDir
    Path stateDir;

    @Test
    void anOutageOfTheRegistryIsWaitedOutNeverDeadLettered(LaharInfra infra) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String queue = "relia-q-" + run;
        String job = "outage-" + run;
        String jobKey = Topics.jobKey("default", job);
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        RegistrySerdes direct = new RegistrySerdes(infra.registryUrl());

        try (TcpProxy proxy = TcpProxy.toUrl(infra.registryUrl());
                KafkaProducer<String, SpecificRecord> producer = BrokerApp.producer(infra, direct);
                KeyedReader<DeadLetter> letters = new KeyedReader<>(
                        infra.bootstrapServers(),
                        infra.registryUrl(),
                        Topics.DEAD_LETTERS.name(),
                        DeadLetter.class,
                        jobKey);
                KeyedReader<DeadLetter> queueLetters = new KeyedReader<>(
                        infra.bootstrapServers(),
                        infra.registryUrl(),
                        Topics.DEAD_LETTERS.name(),
                        DeadLetter.class,
                        queue)) {
            // The queue is on its topic before the streams-app starts: the global store reads it at start.
            BrokerApp.send(
                    producer,
                    Topics.QUEUES,
                    queue,
                    Queue.newBuilder().setName(queue).setTime(Instant.now()).build());
            proxy.cut();

            RegistrySerdes proxied =
                    new RegistrySerdes(proxy.url(infra.registryUrl())).withWait(Guards.PROCESSING_WAIT);
            Guards guards = new Guards(proxied);
            KafkaStreams streams = new KafkaStreams(
                    LaharTopology.build(guards), BrokerApp.config(infra, "registry-outage-" + run, stateDir));
            streams.setUncaughtExceptionHandler(new StreamThreadFailures(guards));
            streams.setStateListener(guards);
            // start() returns once the global stores are restored: here, once the registry answers.
            Thread starter = Thread.ofPlatform().start(streams::start);
            try {
                Thread.sleep(8_000);
                assertThat(streams.state())
                        .as("waiting, not failed")
                        .isIn(KafkaStreams.State.CREATED, KafkaStreams.State.REBALANCING);
                HealthCheckResponse waiting = StreamsReadiness.check(streams.state(), proxied.outage());
                assertThat(waiting.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
                assertThat(waiting.getData().orElseThrow().get("registry").toString())
                        .contains("has not answered since");

                proxy.restore();
                await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> StreamsReadiness.check(streams.state(), proxied.outage())
                                        .getStatus()
                                == HealthCheckResponse.Status.UP);

                // The queue read during the outage is there for admission.
                BrokerApp.send(
                        producer,
                        Topics.JOB_COMMANDS,
                        jobKey,
                        LifecycleScript.submit(
                                "outage-" + run,
                                job,
                                LifecycleScript.tfJob(job)
                                        .replaceFirst("\nspec:\n", "\nspec:\n  queue: " + queue + "\n"),
                                System.currentTimeMillis()));
                JobInfo admitted = await().atMost(Duration.ofSeconds(60))
                        .until(() -> job(streams, jobKey), j -> j != null && j.live());
                assertThat(admitted.podGroupPhase()).isEqualTo(PodGroupPhase.Pending);

                // The registry away while running: the first decision (a schema id this app has not
                // read yet) waits where it is, and applies when the registry is back.
                proxy.cut();
                BrokerApp.send(
                        producer,
                        Topics.SCHEDULER_DECISIONS,
                        jobKey,
                        LifecycleScript.podGroupPhase(
                                job,
                                io.lahar.core.job.PodGroups.name(admitted.job()),
                                "Inqueue",
                                System.currentTimeMillis()));
                Thread.sleep(6_000);
                assertThat(job(streams, jobKey).podGroupPhase())
                        .as("held while the registry is away")
                        .isEqualTo(PodGroupPhase.Pending);
                assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
                assertThat(StreamsReadiness.check(streams.state(), proxied.outage())
                                .getStatus())
                        .isEqualTo(HealthCheckResponse.Status.DOWN);
                proxy.restore();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> job(streams, jobKey).podGroupPhase() == PodGroupPhase.Inqueue);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> StreamsReadiness.check(streams.state(), proxied.outage())
                                        .getStatus()
                                == HealthCheckResponse.Status.UP);
            } finally {
                proxy.restore();
                streams.close(Duration.ofSeconds(30));
                starter.join(30_000);
                guards.close();
            }
            assertThat(letters.pollFor(Duration.ofSeconds(3)))
                    .as("nothing of the job dead-lettered")
                    .isEmpty();
            assertThat(queueLetters.pollFor(Duration.ofSeconds(1)))
                    .as("the queue not dead-lettered")
                    .isEmpty();
        }
    }

    /** The job as this app's jobs store holds it, or null. */
    private static JobInfo job(KafkaStreams streams, String key) {
        byte[] bytes = streams.store(StoreQueryParameters.fromNameAndType(
                        JobStore.NAME, QueryableStoreTypes.<String, byte[]>keyValueStore()))
                .get(key);
        return bytes == null ? null : new JobStore.Codec().decode(bytes).info();
    }
}
