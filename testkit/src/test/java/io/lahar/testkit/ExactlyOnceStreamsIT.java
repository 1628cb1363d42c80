package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Kafka Streams app with exactly_once_v2 and a state store runs on the single broker. */
@WithLaharInfra
class ExactlyOnceStreamsIT {

    @TempDir
    Path stateDir;

    @Test
    void anExactlyOnceV2TopologyWithAStateStoreCountsEveryRecordOnce(LaharInfra infra) {
        String suffix = UUID.randomUUID().toString();
        String input = "eos-in-" + suffix;
        String output = "eos-out-" + suffix;
        infra.createTopics(2, input, output);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .mapValues(Object::toString)
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "testkit-eos-" + suffix);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        config.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);

        try (KafkaStreams streams = new KafkaStreams(builder.build(), config)) {
            streams.start();
            await().atMost(Duration.ofSeconds(120)).until(() -> streams.state() == KafkaStreams.State.RUNNING);

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                for (String job : List.of("default/a", "default/b", "default/a", "default/a")) {
                    producer.send(new ProducerRecord<>(input, job, "PodFailed"));
                }
            }

            Map<String, Object> consumerConfig = new HashMap<>(infra.kafkaClientConfig());
            consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + suffix);
            consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            Map<String, List<String>> countsByJob = new HashMap<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
                consumer.subscribe(List.of(output));
                await().atMost(Duration.ofSeconds(120)).pollInSameThread().until(() -> {
                    consumer.poll(Duration.ofMillis(200))
                            .forEach(r -> countsByJob
                                    .computeIfAbsent(r.key(), k -> new ArrayList<>())
                                    .add(r.value()));
                    return countsByJob.values().stream().mapToInt(List::size).sum() >= 4;
                });
            }
            assertThat(countsByJob)
                    .containsEntry("default/a", List.of("1", "2", "3"))
                    .containsEntry("default/b", List.of("1"));
        }
    }
}
