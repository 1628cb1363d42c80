package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.Bind;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The bridge on the real broker and registry, against the embedded cluster: intents in → one pod
 * (however often redelivered); a decision → the pod bound; the simulated kubelet runs it → pod
 * events out with the exit code; a Volcano Job applied through the API → a submit command; a
 * record that does not decode → a dead letter.
 */
@WithLaharInfra
class BridgeIT {

    @Test
    void intentsBecomePodsThatAreBoundRunAndReported(LaharInfra infra) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (Topics.TopicSpec spec : Topics.all()) {
            NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) 1);
            topics.add(spec.compacted() ? topic.configs(Map.of("cleanup.policy", "compact")) : topic);
        }
        infra.createTopics(topics);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        // A namespace of its own, and no node inventory: the broker is shared with the other
        // modules' tests, whose schedulers and engines must not see this test's nodes or pods.
        String ns = "bridge-it-" + suffix;
        String job = "it-" + suffix;
        String key = Topics.jobKey(ns, job);
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());

        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                        .withNodes(NodeSpec.parse("2x{cpu=8,memory=32Gi}"))
                        .withTimeScale(0.1));
                Bridge bridge = Bridge.start(
                        cluster.client(),
                        new Bridge.Settings(
                                KafkaClients.plaintext(infra.bootstrapServers()),
                                infra.registryUrl(),
                                null,
                                "bridge-it-" + suffix,
                                true,
                                Optional.of(ns),
                                false,
                                Set.of(BridgeLabels.DEFAULT_SCHEDULER)),
                        Clock.systemUTC());
                KafkaProducer<String, byte[]> producer = producer(infra);
                KafkaConsumer<String, byte[]> consumer = consumer(infra, suffix)) {
            KubernetesClient client = cluster.client();
            String template = """
                    {"metadata":{"annotations":{"lahar.io/sim-duration":"3s","lahar.io/sim-exit-code":"2"}},
                     "spec":{"containers":[{"name":"main","image":"busybox"}]}}""";
            PodIntent intent = TestIntents.create(ns, job, "worker", 0, 1, template);
            send(producer, serdes, Topics.POD_INTENTS.name(), key, intent);
            send(producer, serdes, Topics.POD_INTENTS.name(), key, intent); // redelivered
            producer.send(new ProducerRecord<>(Topics.POD_INTENTS.name(), key, new byte[] {9, 9, 9}))
                    .get();
            send(
                    producer,
                    serdes,
                    Topics.SCHEDULER_DECISIONS.name(),
                    key,
                    SchedulerDecision.newBuilder()
                            .setNamespace(ns)
                            .setJob(job)
                            .setPodGroup(job)
                            .setEpoch(1)
                            .setTime(TestIntents.T0)
                            .setDecision(Bind.newBuilder()
                                    .setPod(job + "-worker-0")
                                    .setNode("node-1")
                                    .setAction("allocate")
                                    .setJobVersion(1)
                                    .build())
                            .build());
            GenericKubernetesResource vcjob =
                    new KubernetesSerialization().unmarshal("""
                    apiVersion: batch.volcano.sh/v1alpha1
                    kind: Job
                    metadata: {name: %s-cr, namespace: %s}
                    spec: {minAvailable: 1, tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: x}]}}}]}
                    """.formatted(job, ns), GenericKubernetesResource.class);
            client.genericKubernetesResources(VolcanoKinds.JOBS)
                    .inNamespace(ns)
                    .resource(vcjob)
                    .create();

            Deserializer<PodEvent> events = serdes.value(PodEvent.class).deserializer();
            Deserializer<DeadLetter> letters = serdes.value(DeadLetter.class).deserializer();
            Deserializer<JobCommand> commands = serdes.value(JobCommand.class).deserializer();
            List<PodEvent> seen = new ArrayList<>();
            List<DeadLetter> dead = new ArrayList<>();
            List<JobCommand> submitted = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline
                    && (seen.stream().noneMatch(e -> e.getPhase().equals("Failed"))
                            || dead.isEmpty()
                            || submitted.isEmpty())) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.topic().equals(Topics.POD_EVENTS.name()) && key.equals(record.key())) {
                        seen.add(events.deserialize(record.topic(), record.value()));
                    } else if (record.topic().equals(Topics.DEAD_LETTERS.name()) && key.equals(record.key())) {
                        dead.add(letters.deserialize(record.topic(), record.value()));
                    } else if (record.topic().equals(Topics.JOB_COMMANDS.name())
                            && Topics.jobKey(ns, job + "-cr").equals(record.key())) {
                        submitted.add(commands.deserialize(record.topic(), record.value()));
                    }
                }
            }

            assertThat(client.pods()
                            .inNamespace(ns)
                            .withLabel(PodLabels.JOB_NAME, job)
                            .list()
                            .getItems())
                    .hasSize(1);
            assertThat(seen).extracting(PodEvent::getPhase).containsSubsequence("Pending", "Running", "Failed");
            PodEvent failed = seen.stream()
                    .filter(e -> e.getPhase().equals("Failed"))
                    .findFirst()
                    .orElseThrow();
            assertThat(failed.getNode()).isEqualTo("node-1");
            assertThat(failed.getPod()).isEqualTo(job + "-worker-0");
            assertThat(failed.getContainers()).singleElement().satisfies(c -> {
                assertThat(c.getExitCode()).isEqualTo(2);
                assertThat(c.getReason()).isEqualTo("Error");
            });
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.getTopic()).isEqualTo(Topics.POD_INTENTS.name());
                assertThat(d.getProcessor()).isEqualTo("k8s-bridge");
            });
            assertThat(submitted)
                    .singleElement()
                    .satisfies(c -> assertThat(c.getCommand()).isInstanceOf(SubmitJob.class));
            assertThat(bridge.isRunning()).isTrue();
            assertThat(bridge.polls().sincePoll())
                    .as("the loop's consumer watched, polling every 250 ms at most")
                    .containsOnlyKeys(Bridge.LOOP)
                    .allSatisfy((thread, seconds) -> assertThat(seconds).isLessThan(5));
        }
    }

    private static void send(
            KafkaProducer<String, byte[]> producer,
            RegistrySerdes serdes,
            String topic,
            String key,
            SpecificRecord value)
            throws Exception {
        @SuppressWarnings({"unchecked", "rawtypes"})
        byte[] bytes = ((org.apache.kafka.common.serialization.Serde) serdes.value(value.getClass()))
                .serializer()
                .serialize(topic, value);
        producer.send(new ProducerRecord<>(topic, key, bytes)).get();
    }

    private static KafkaProducer<String, byte[]> producer(LaharInfra infra) {
        Map<String, Object> config = new HashMap<>(infra.kafkaClientConfig());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<String, byte[]> consumer(LaharInfra infra, String suffix) {
        Map<String, Object> config = new HashMap<>(infra.kafkaClientConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "bridge-it-reader-" + suffix);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(Topics.POD_EVENTS.name(), Topics.DEAD_LETTERS.name(), Topics.JOB_COMMANDS.name()));
        // Join the group and take the end positions before anything is sent.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.assignment().forEach(consumer::position);
        return consumer;
    }
}
