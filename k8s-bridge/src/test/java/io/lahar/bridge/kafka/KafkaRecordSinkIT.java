package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.Node;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/** The sink's linger batches what the watches publish, never what a caller waits for. */
class KafkaRecordSinkIT {

    private static final Duration LINGER = Duration.ofSeconds(30);

    @Test
    void aRecordSentAndWaitedForDoesNotWaitOutTheLinger() {
        LaharInfra infra = LaharInfra.shared();
        // A topic of its own: the broker is shared, and a node on lahar.nodes would be scheduled on.
        String topic = "bridge-sink-it-" + UUID.randomUUID();
        infra.createTopics(List.of(new NewTopic(topic, 1, (short) 1)));
        try (KafkaRecordSink sink = new KafkaRecordSink(
                KafkaClients.of(infra.kafkaClientConfig()), new RegistrySerdes(infra.registryUrl()), LINGER)) {
            Node node = Node.newBuilder()
                    .setName("n1")
                    .setAllocatable(Map.of())
                    .setTime(Instant.parse("2026-01-01T00:00:00Z"))
                    .build();
            // The first send also fetches the metadata and registers the schema: not what is timed.
            sink.send(topic, "n1", node);

            long start = System.nanoTime();
            sink.send(topic, "n1", node);
            sink.send(topic, "n1", null);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(took).as("two acknowledged sends").isLessThan(LINGER.dividedBy(2));
        }
    }
}
