package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class KafkaClientsTest {

    /** A service's kafka. settings as Quarkus hands them over: connection, security and a producer's tuning. */
    private static final Map<String, Object> SERVICE = Map.of(
            "bootstrap.servers", "127.0.0.1:9093",
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";",
            "ssl.truststore.location", "/etc/lahar/truststore.p12",
            "linger.ms", "5");

    @Test
    void everyClientGetsTheSecuritySettingsAndItsOwn() {
        KafkaClients clients = KafkaClients.of(SERVICE);

        Map<String, Object> config = clients.config(Map.of(ProducerConfig.ACKS_CONFIG, "all"));

        assertThat(config)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsKey("sasl.jaas.config")
                .containsEntry("ssl.truststore.location", "/etc/lahar/truststore.p12")
                .containsEntry("bootstrap.servers", "127.0.0.1:9093")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .doesNotContainKey("linger.ms");
    }

    @Test
    void aClientMayNotChooseItsOwnConnection() {
        KafkaClients clients = KafkaClients.of(SERVICE);

        assertThatThrownBy(() -> clients.config(Map.of("security.protocol", "PLAINTEXT")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("security.protocol");
        assertThatThrownBy(() -> clients.config(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "elsewhere:9092")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bootstrap.servers");
    }

    @Test
    void theSettingsAsKafkaParsedThemReachAClient() {
        // What a Kafka Streams processor's appConfigs() give (the global dead letters' producer is built from them).
        Map<String, ?> parsed =
                new AdminClientConfig(Map.of("bootstrap.servers", "127.0.0.1:9093,127.0.0.1:9094")).values();

        KafkaClients clients = KafkaClients.of(parsed);

        assertThat(clients.bootstrapServers()).isEqualTo("127.0.0.1:9093,127.0.0.1:9094");
        assertThat(clients.config(Map.of())).containsEntry("bootstrap.servers", "127.0.0.1:9093,127.0.0.1:9094");
    }

    @Test
    void itsNameNeverShowsThePassword() {
        assertThat(KafkaClients.of(SERVICE).toString())
                .contains("127.0.0.1:9093", "SASL_SSL")
                .doesNotContain("password");
    }

    @Test
    void quarkusTlsRegistryNameTravelsWithItsEngineFactory() {
        Map<String, Object> config = KafkaClients.of(Map.of(
                        "bootstrap.servers",
                        "b:1",
                        "ssl.engine.factory.class",
                        "io.quarkus.kafka.client.tls.QuarkusKafkaSslEngineFactory",
                        "tls-configuration-name",
                        "kafka-tls"))
                .config(Map.of());

        assertThat(config).containsEntry("tls-configuration-name", "kafka-tls").containsKey("ssl.engine.factory.class");
    }
}
