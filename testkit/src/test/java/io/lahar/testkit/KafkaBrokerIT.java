package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker of its own: restarts on the same directory, and is reaped on close. */
class KafkaBrokerIT {

    @TempDir
    Path dir;

    @Test
    void aPreferredPortInUseGivesWayToAFreeOne() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                KafkaBroker broker = KafkaBroker.start(dir, taken.getLocalPort(), true)) {
            assertThat(broker.port()).isNotEqualTo(taken.getLocalPort());
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .hasSize(1);
            }
        }
    }

    @Test
    void aRestartOnTheSameDirectoryKeepsTopicsAndRecords() throws Exception {
        String topic = "survivor";
        long firstPid;
        try (KafkaBroker broker = KafkaBroker.start(dir)) {
            firstPid = broker.pid();
            System.out.printf(
                    "kafka broker (fresh dir): started in %d ms, RSS %d MB%n",
                    broker.startupTime().toMillis(), broker.rssBytes().orElse(0) / (1024 * 1024));
            assertThat(dir.resolve("kafka/meta.properties")).isRegularFile();
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                producer.send(new ProducerRecord<>(topic, 1, "default/job", "kept"))
                        .get(30, TimeUnit.SECONDS);
            }
        }
        assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();

        try (KafkaBroker broker = KafkaBroker.start(dir)) {
            System.out.printf(
                    "kafka broker (restart): started in %d ms, RSS %d MB%n",
                    broker.startupTime().toMillis(), broker.rssBytes().orElse(0) / (1024 * 1024));
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains(topic);
                assertThat(admin.describeTopics(List.of(topic))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(topic)
                                .partitions())
                        .hasSize(2);
            }
            List<String> values = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
                TopicPartition partition = new TopicPartition(topic, 1);
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (values.isEmpty() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
                }
            }
            assertThat(values).containsExactly("kept");
        }
    }

    @Test
    void aBrokerLeftRunningIsReapedOnClose() {
        KafkaBroker broker = KafkaBroker.start(dir);
        long pid = broker.pid();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isTrue();
        assertThat(broker.isAlive()).isTrue();

        broker.close();

        assertThat(broker.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(broker.logFile()).isRegularFile();
    }

    @Test
    void aTakenPortIsReportedWithTheBrokersOwnWords() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> KafkaBroker.start(dir, taken.getLocalPort()))
                    .isInstanceOf(InfraException.class)
                    .hasMessageContaining(Integer.toString(taken.getLocalPort()))
                    .hasMessageContaining("already in use");
        }
    }
}
