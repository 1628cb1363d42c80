package io.lahar.streams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.schema.PollWatch;
import io.lahar.schema.PollWatch.Notice;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams-app's watch of its stream threads ({@link StreamThreadLiveness#watch}) on a real
 * streams client (the streams-app's exactly-once settings): a stream thread held in a processor is
 * seen through its main consumer's own metric (and no other consumer of the client is taken for
 * it), named with the processor's frame in its stack, not live past the limit, and live again once
 * it polls.
 */
@WithLaharInfra
class StreamThreadLivenessIT {

    @TempDir
    Path stateDir;

    /** Waits for {@code release} on the record "hold", as a call that does not return would. */
    static final class Holding implements Processor<byte[], byte[], Void, Void> {
        private final CountDownLatch release;

        Holding(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            if ("hold".equals(new String(record.value(), StandardCharsets.UTF_8))) {
                try {
                    release.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void aThreadHeldInAProcessorIsNamedWithWhereItIsAndIsNotLivePastTheLimit(LaharInfra infra) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String input = "test.held-in-" + run;
        infra.createTopics(1, input);
        CountDownLatch release = new CountDownLatch(1);
        Topology topology = new Topology();
        topology.addSource("in", input);
        topology.addProcessor("holding", () -> new Holding(release), "in");

        Properties props = ByteStreams.settings(infra, "held-thread-" + run, stateDir);
        props.put(StreamsConfig.POLL_MS_CONFIG, 10);

        try (KafkaStreams streams = new KafkaStreams(topology, props);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers()),
                        new StringSerializer(),
                        new StringSerializer())) {
            PollWatch watch = StreamThreadLiveness.watch(streams, Duration.ofSeconds(2), Duration.ofSeconds(4));
            streams.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !watch.sincePoll().isEmpty());
            List<Notice> notices = new ArrayList<>();
            // Polling every 10 ms: never 2 s without a poll while nothing holds it.
            for (int i = 0; i < 3; i++) {
                Thread.sleep(1_000);
                notices.addAll(watch.check());
            }
            assertThat(notices).as("an idle thread polls").isEmpty();
            assertThat(watch.live()).isTrue();

            producer.send(new ProducerRecord<>(input, "k", "hold")).get();

            await().atMost(Duration.ofSeconds(30)).until(() -> notices.addAll(watch.check()) && !notices.isEmpty());
            assertThat(notices).first().satisfies(n -> {
                assertThat(n.level()).isEqualTo(Level.WARNING);
                assertThat(n.message())
                        .contains("-StreamThread-1 has not polled Kafka for ")
                        .contains("(TIMED_WAITING)", "CountDownLatch.await", "StreamThreadLivenessIT$Holding.process");
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> !watch.live());
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            notices.addAll(watch.check()) && notices.getLast().level() == Level.ERROR);
            assertThat(notices.getLast().message()).contains("past max.poll.interval.ms", "Holding.process");

            release.countDown();

            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            notices.addAll(watch.check()) && notices.getLast().level() == Level.INFO);
            assertThat(notices.getLast().message()).endsWith("-StreamThread-1 polls Kafka again");
            assertThat(watch.live()).isTrue();
            streams.close(Duration.ofSeconds(30));
        } finally {
            release.countDown();
        }
    }
}
