package io.lahar.streams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record that kills the stream thread (an Error, as the OutOfMemoryError a job of 2^31-1
 * replicas once raised) on the real broker, exactly once: the thread is replaced, the record's
 * next reading dead-letters it with what killed the thread, and the records after it are processed
 * — it cannot put the thread into a crash loop. The processor runs inside the {@link GuardedProcessor}
 * and under the {@link StreamThreadFailures} every processor of the streams-app has.
 */
@WithLaharInfra
class FatalRecordIT {

    private static final String KILLER = "boom";

    @TempDir
    Path stateDir;

    /** Forwards every value but {@value #KILLER}, on which it throws an Error, as a processor with a bug might. */
    static final class Fragile implements Processor<byte[], byte[], byte[], byte[]> {
        private ProcessorContext<byte[], byte[]> context;

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            if (KILLER.equals(new String(record.value(), StandardCharsets.UTF_8))) {
                throw new OutOfMemoryError("Requested array size exceeds VM limit");
            }
            context.forward(record, "out");
        }
    }

    @Test
    void aRecordThatKillsTheThreadIsDeadLetteredOnItsNextReadingAndTheRestIsProcessed(LaharInfra infra)
            throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String input = "test.fatal-in-" + run;
        String output = "test.fatal-out-" + run;
        infra.createTopics(1, input, output);
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Guards guards = new Guards(serdes);

        Topology topology = new Topology();
        topology.addSource("in", input);
        topology.addProcessor("fragile", () -> guards.guard(new Fragile(), "dead-letters"), "in");
        topology.addSink("out", output, "fragile");
        topology.addSink(
                "dead-letters",
                Topics.DEAD_LETTERS.name(),
                new ByteArraySerializer(),
                serdes.value(DeadLetter.class).serializer(),
                "fragile");

        Properties props = ByteStreams.settings(infra, "fatal-record-" + run, stateDir);
        // The replacement thread gets the task once the dead thread's group session expires (decision
        // 020): the broker's shortest session instead of the streams-app's 45 s, and a transaction
        // timeout still shorter than it, as the streams-app has them.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 5_000);

        try (KafkaStreams streams = new KafkaStreams(topology, props);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers()),
                        new StringSerializer(),
                        new StringSerializer())) {
            streams.setUncaughtExceptionHandler(new StreamThreadFailures(guards));
            streams.setStateListener(guards);
            streams.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            Set<String> firstThreads = threads(streams);

            for (String value : List.of("a", KILLER, "b", "c")) {
                producer.send(new ProducerRecord<>(input, "k", value)).get();
            }

            assertThat(read(infra, output, 3, r -> true))
                    .as("every other record, exactly once")
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("a", "b", "c");
            List<ConsumerRecord<byte[], byte[]>> letters = read(
                    infra,
                    Topics.DEAD_LETTERS.name(),
                    1,
                    r -> input.equals(letter(serdes, r).getTopic()));
            assertThat(letters).singleElement().satisfies(r -> {
                DeadLetter letter = letter(serdes, r);
                assertThat(letter.getOffset()).isEqualTo(1L);
                assertThat(StandardCharsets.UTF_8.decode(letter.getValue()).toString())
                        .isEqualTo(KILLER);
                assertThat(letter.getProcessor()).isEqualTo("streams-app");
                assertThat(letter.getError())
                        .startsWith("the record killed stream thread ")
                        .contains("java.lang.OutOfMemoryError: Requested array size exceeds VM limit");
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            assertThat(threads(streams))
                    .as("the thread was replaced")
                    .hasSize(1)
                    .doesNotContainAnyElementsOf(firstThreads);

            // Later records still go through the replacement thread.
            producer.send(new ProducerRecord<>(input, "k", "d")).get();
            assertThat(read(infra, output, 4, r -> true))
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("a", "b", "c", "d");
            streams.close(Duration.ofSeconds(30));
        } finally {
            guards.close();
        }
    }

    private static Set<String> threads(KafkaStreams streams) {
        return streams.metadataForLocalThreads().stream()
                .map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }

    private static DeadLetter letter(RegistrySerdes serdes, ConsumerRecord<byte[], byte[]> r) {
        return serdes.value(DeadLetter.class).deserializer().deserialize(Topics.DEAD_LETTERS.name(), r.value());
    }

    /** The committed records of {@code topic} that {@code wanted} keeps, once there are at least {@code count}. */
    private static List<ConsumerRecord<byte[], byte[]>> read(
            LaharInfra infra,
            String topic,
            int count,
            java.util.function.Predicate<ConsumerRecord<byte[], byte[]>> wanted) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        infra.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "fatal-reader-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (seen.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (wanted.test(r)) {
                        seen.add(r);
                    }
                }
            }
            // A moment more: a duplicate would show here.
            long settle = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < settle) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (wanted.test(r)) {
                        seen.add(r);
                    }
                }
            }
            return seen;
        }
    }
}
