package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shared pair, used for real: topics, transactions, schemas. */
@WithLaharInfra
class LaharInfraIT {

    @BeforeAll
    static void report(LaharInfra infra) {
        infra.broker()
                .ifPresent(b -> System.out.printf(
                        "kafka broker: started in %d ms, RSS %d MB%n",
                        b.startupTime().toMillis(), b.rssBytes().orElse(0) / (1024 * 1024)));
        infra.registry()
                .ifPresent(r -> System.out.printf(
                        "apicurio registry: started in %d ms, RSS %d MB%n",
                        r.startupTime().toMillis(), r.rssBytes().orElse(0) / (1024 * 1024)));
    }

    @Test
    void everyTestOfTheJvmGetsTheSameInstance(LaharInfra infra) {
        assertThat(LaharInfra.shared()).isSameAs(infra);
        assertThat(infra.bootstrapServers()).startsWith("127.0.0.1:");
        assertThat(infra.registryUrl()).startsWith("http://127.0.0.1:").endsWith("/apis/registry/v3");
        assertThat(infra.ccompatUrl()).startsWith("http://127.0.0.1:").endsWith("/apis/ccompat/v7");
    }

    @Test
    void aTransactionalProducerCommitsAndAbortsOnTheSingleBroker(LaharInfra infra) {
        String topic = "tx-" + UUID.randomUUID();
        infra.createTopics(3, topic);

        Map<String, Object> producerConfig = new HashMap<>(infra.kafkaClientConfig());
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "testkit-" + topic);
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "default/job-a", "committed-1"));
            producer.send(new ProducerRecord<>(topic, "default/job-b", "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "default/job-a", "aborted"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "default/job-c", "committed-3"));
            producer.commitTransaction();
        }

        Map<String, Object> consumerConfig = new HashMap<>(infra.kafkaClientConfig());
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "testkit-" + topic);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
            // Anything aborted would have arrived with the last committed record; poll once more to be sure.
            consumer.poll(Duration.ofSeconds(1)).forEach(r -> values.add(r.value()));
            consumer.commitSync();
        }
        assertThat(values).containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
    }

    @Test
    void createTopicsIsIdempotentAndKeepsTheFirstPartitionCount(LaharInfra infra) throws Exception {
        String topic = "idem-" + UUID.randomUUID();
        infra.createTopics(4, topic);
        infra.createTopics(2, topic);
        try (Admin admin = Admin.create(infra.kafkaClientConfig())) {
            TopicDescription description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(topic);
            assertThat(description.partitions())
                    .hasSize(4)
                    .allSatisfy(p -> assertThat(p.leader()).isNotNull());
        }
    }

    @Test
    void automaticTopicCreationIsOff(LaharInfra infra) throws Exception {
        String topic = "never-created-" + UUID.randomUUID();
        Map<String, Object> producerConfig = new HashMap<>(infra.kafkaClientConfig());
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3000);
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            var sent = producer.send(new ProducerRecord<>(topic, "k", "v"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sent.get(30, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class)
                    .hasMessageContaining("not present in metadata");
        }
        try (Admin admin = Admin.create(infra.kafkaClientConfig())) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(topic);
        }
    }

    @Test
    void aSchemaRegisteredThroughTheConfluentApiReadsBack(LaharInfra infra) {
        Ccompat registry = new Ccompat(infra.ccompatUrl());
        String subject = "jobs-" + UUID.randomUUID() + "-value";
        String schema = """
                {"type":"record","name":"JobCommand","namespace":"io.lahar.it",
                 "fields":[{"name":"job","type":"string"}]}""";

        Ccompat.Answer registered = registry.register(subject, schema);
        assertThat(registered.status()).isEqualTo(200);
        int id = registered.body().get("id").asInt();

        Ccompat.Answer byId = registry.get("/schemas/ids/" + id);
        assertThat(byId.status()).isEqualTo(200);
        assertThat(byId.body().get("schema").asText()).contains("JobCommand").contains("\"job\"");

        Ccompat.Answer latest = registry.get("/subjects/" + subject + "/versions/latest");
        assertThat(latest.status()).isEqualTo(200);
        assertThat(latest.body().get("id").asInt()).isEqualTo(id);
        assertThat(latest.body().get("version").asInt()).isEqualTo(1);

        // Registering the same schema again is idempotent: same id, no new version.
        assertThat(registry.register(subject, schema).body().get("id").asInt()).isEqualTo(id);
        assertThat(registry.get("/subjects/" + subject + "/versions").body()).hasSize(1);
    }

    @Test
    void theGlobalCompatibilityIsBackward(LaharInfra infra) {
        Ccompat registry = new Ccompat(infra.ccompatUrl());
        assertThat(registry.get("/config").body().get("compatibilityLevel").asText())
                .isEqualTo("BACKWARD");

        String subject = "evolve-" + UUID.randomUUID() + "-value";
        assertThat(registry.register(subject, """
                {"type":"record","name":"PodEvent","fields":[{"name":"pod","type":"string"}]}""").status()).isEqualTo(200);
        // A new field without a default cannot read old records: rejected.
        Ccompat.Answer breaking = registry.register(subject, """
                {"type":"record","name":"PodEvent","fields":[{"name":"pod","type":"string"},
                 {"name":"node","type":"string"}]}""");
        assertThat(breaking.status()).isEqualTo(409);
        // An optional field with a default can: accepted as version 2.
        Ccompat.Answer evolving = registry.register(subject, """
                {"type":"record","name":"PodEvent","fields":[{"name":"pod","type":"string"},
                 {"name":"node","type":["null","string"],"default":null}]}""");
        assertThat(evolving.status()).isEqualTo(200);
        assertThat(registry.get("/subjects/" + subject + "/versions").body()).hasSize(2);
    }

    @Test
    void apicuriosOwnApiAnswersAtTheRegistryUrl(LaharInfra infra) throws Exception {
        HttpResponse<String> info = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(infra.registryUrl() + "/system/info"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(info.statusCode()).isEqualTo(200);
        assertThat(info.body()).contains("3.3.3");
    }
}
