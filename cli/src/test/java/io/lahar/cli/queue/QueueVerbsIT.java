package io.lahar.cli.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import io.lahar.core.api.Manifests;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The queue verbs against a real broker and registry: create, close, list, get, delete. */
@WithLaharInfra
class QueueVerbsIT {

    record Run(int code, String out, String err) {}

    @Test
    void createCloseListAndDeleteAQueue(LaharInfra infra) throws Exception {
        infra.createTopics(List.of(
                new NewTopic(Topics.QUEUES.name(), Topics.QUEUES.partitions(), (short) 1)
                        .configs(Map.of("cleanup.policy", "compact")),
                new NewTopic(Topics.QUEUE_STATUS.name(), Topics.QUEUE_STATUS.partitions(), (short) 1)
                        .configs(Map.of("cleanup.policy", "compact"))));
        String[] at = {"--bootstrap", infra.bootstrapServers(), "--registry", infra.registryUrl()};
        String name = "it-q-" + UUID.randomUUID().toString().substring(0, 8);

        Run created = lahar(at, "queue", "create", "--name", name, "--weight", "2", "--capability", "cpu=4,memory=8Gi");
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).contains("Created Queue: " + name);

        Run again = lahar(at, "queue", "create", "--name", name);
        assertThat(again.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(again.err()).contains("error: metadata.name: queue \"" + name + "\" already exists");

        Run badWeight = lahar(at, "queue", "create", "--name", name + "-x", "--parent", name + "-nowhere");
        assertThat(badWeight.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(badWeight.err()).contains("error: spec.parent: parent queue \"" + name + "-nowhere\" not found");

        Run closed = lahar(at, "queue", "operate", "--name", name, "--action", "close");
        assertThat(closed.code()).as(closed.err()).isZero();

        // the scheduler-service's report on the queue, joined into the table
        try (KafkaProducer<String, QueueStatus> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers()),
                new StringSerializer(),
                new RegistrySerdes(infra.registryUrl()).value(QueueStatus.class).serializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.QUEUE_STATUS.name(),
                            name,
                            QueueStatus.newBuilder()
                                    .setName(name)
                                    .setPending(2)
                                    .setRunning(1)
                                    .setAllocated(Map.of("cpu", "1"))
                                    .setDeserved(Map.of("cpu", "3"))
                                    .setTime(Instant.now())
                                    .build()))
                    .get();
        }

        Run list = lahar(at, "queue", "list");
        assertThat(list.code()).as(list.err()).isZero();
        List<String> lines = list.out().lines().toList();
        assertThat(lines.get(0)).startsWith("Name");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("default "));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("root "));
        assertThat(lines)
                .filteredOn(l -> l.startsWith(name + " "))
                .singleElement()
                .satisfies(l -> assertThat(l.split("\\s+"))
                        .containsExactly(name, "2", "Closed", "0", "2", "1", "0", "0", "cpu=1", "cpu=3"));

        Run get = lahar(at, "queue", "get", "--name", name, "-o", "json");
        assertThat(get.code()).as(get.err()).isZero();
        var doc = Manifests.jsonMapper().readTree(get.out());
        assertThat(doc.path("status").path("state").asText()).isEqualTo("Closed");
        assertThat(doc.path("spec").path("capability").path("memory").asText()).isEqualTo("8Gi");

        Run deleteDefault = lahar(at, "queue", "delete", "--name", "default");
        assertThat(deleteDefault.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(deleteDefault.err()).contains("error: metadata.name: `default` queue can not be deleted");

        Run deleted = lahar(at, "queue", "delete", "--name", name);
        assertThat(deleted.code()).as(deleted.err()).isZero();

        Run gone = lahar(at, "queue", "get", "--name", name);
        assertThat(gone.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(gone.err()).contains("queue \"" + name + "\" not found");
        assertThat(lahar(at, "queue", "list").out()).doesNotContain(name);
    }

    static Run lahar(String[] at, String... args) {
        String[] all = new String[args.length + at.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(at, 0, all, args.length, at.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lahar.run(all, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }
}
