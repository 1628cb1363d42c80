package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
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
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The shared broker's SASL_SSL listener: the client settings the testkit writes reach it, a
 * client with a wrong password is refused, and so is one that does not speak TLS.
 */
class SecureListenerIT {

    private final LaharInfra.Secure secure = LaharInfra.shared()
            .secure()
            .orElseThrow(() -> new AssertionError("the shared broker has no SASL_SSL listener (bin/test passes it as "
                    + LaharInfra.KAFKA_SECURE_BOOTSTRAP_PROPERTY + ")"));

    @Test
    void aClientWithTheSettingsProducesAndConsumesOverSaslSsl() throws Exception {
        String topic = "secure-" + System.nanoTime();
        Map<String, Object> config = secure.clientConfig();
        assertThat(config)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        assertThat(Files.getPosixFilePermissions(secure.clientConfigFile()))
                .as("the file holds the password")
                .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        try (Admin admin = Admin.create(config)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> producerConfig = new HashMap<>(config);
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            producer.send(new ProducerRecord<>(topic, "k", "over TLS")).get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> consumerConfig = new HashMap<>(config);
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            TopicPartition p = new TopicPartition(topic, 0);
            consumer.assign(List.of(p));
            consumer.seekToBeginning(List.of(p));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String value = null;
            while (value == null && System.nanoTime() < deadline) {
                for (var record : consumer.poll(java.time.Duration.ofMillis(500))) {
                    value = record.value();
                }
            }
            assertThat(value).isEqualTo("over TLS");
        }
    }

    @Test
    void aClientWithAWrongPasswordIsRefused() {
        Map<String, Object> config = secure.clientConfig();
        config.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"lahar\" password=\"guessed\";");
        assertThatThrownBy(() -> describe(config)).hasRootCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aClientWithoutCredentialsIsRefused() {
        Map<String, Object> plain = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, secure.bootstrapServers());
        // A plaintext client never completes a handshake with a TLS listener: its calls time out.
        assertThatThrownBy(() -> describe(plain)).isInstanceOf(ExecutionException.class);
    }

    private static void describe(Map<String, Object> config) throws Exception {
        Map<String, Object> bounded = new HashMap<>(config);
        bounded.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8000);
        bounded.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4000);
        try (Admin admin = Admin.create(bounded)) {
            admin.describeCluster().nodes().get(20, TimeUnit.SECONDS);
        }
    }
}
