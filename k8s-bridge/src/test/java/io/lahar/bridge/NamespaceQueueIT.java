package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.webhook.AdmissionWebhook;
import io.lahar.bridge.webhook.KnownObjects;
import io.lahar.bridge.webhook.WebhookRegistration;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodGroup;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadKeys;
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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Volcano's namespace default queue, end to end: with the bridge's webhooks registered with the
 * kube-emulator, a bare volcano pod in a namespace annotated {@code scheduling.volcano.sh/queue-name}
 * gets its one-pod PodGroup in that queue (the group the bridge creates in the default queue goes
 * through the PodGroup mutating webhook, as Volcano's pod-group controller's does), and the
 * scheduler's {@code lahar.pod-groups} record carries that queue; a pod annotated with a queue of
 * its own keeps it.
 */
@WithLaharInfra
class NamespaceQueueIT {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();

    @Test
    void aBarePodsGroupIsInItsNamespacesQueue(LaharInfra infra) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (Topics.TopicSpec spec : Topics.all()) {
            NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) 1);
            topics.add(spec.compacted() ? topic.configs(Map.of("cleanup.policy", "compact")) : topic);
        }
        infra.createTopics(topics);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        // A namespace of its own, and no node inventory: the broker is shared with other tests.
        String ns = "ns-queue-it-" + suffix;
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());

        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                        .withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}"))
                        .withTimeScale(0.1));
                KnownObjects known = KnownObjects.watch(cluster.client());
                AdmissionWebhook webhook = AdmissionWebhook.start(known);
                KafkaConsumer<String, byte[]> consumer = consumer(infra, suffix)) {
            KubernetesClient client = cluster.client();
            WebhookRegistration.register(client, webhook);
            client.resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .withAnnotations(Map.of("scheduling.volcano.sh/queue-name", "team-queue"))
                            .endMetadata()
                            .build())
                    .create();
            try (Bridge bridge = Bridge.start(
                    client,
                    new Bridge.Settings(
                            KafkaClients.plaintext(infra.bootstrapServers()),
                            infra.registryUrl(),
                            null,
                            "ns-queue-it-" + suffix,
                            true,
                            Optional.of(ns),
                            false,
                            Set.of(BridgeLabels.DEFAULT_SCHEDULER)),
                    Clock.systemUTC())) {
                Pod bare = create(client, ns, "bare", "");
                Pod own = create(client, ns, "own", "annotations: {scheduling.volcano.sh/queue-name: research}");
                String bareGroup = "podgroup-" + bare.getMetadata().getUid();
                String ownGroup = "podgroup-" + own.getMetadata().getUid();

                Deserializer<PodGroup> groups = serdes.value(PodGroup.class).deserializer();
                Map<String, PodGroup> sent = new HashMap<>();
                Set<String> wanted = Set.of(WorkloadKeys.groupKey(ns, bareGroup), WorkloadKeys.groupKey(ns, ownGroup));
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (System.nanoTime() < deadline && !sent.keySet().containsAll(wanted)) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        if (wanted.contains(record.key()) && record.value() != null) {
                            sent.put(record.key(), groups.deserialize(record.topic(), record.value()));
                        }
                    }
                }

                assertThat(queueOf(client, ns, bareGroup)).isEqualTo("team-queue");
                assertThat(queueOf(client, ns, ownGroup)).isEqualTo("research");
                assertThat(sent.get(WorkloadKeys.groupKey(ns, bareGroup)))
                        .isNotNull()
                        .satisfies(g -> assertThat(String.valueOf(g.getSpec().getQueue()))
                                .isEqualTo("team-queue"));
                assertThat(sent.get(WorkloadKeys.groupKey(ns, ownGroup)))
                        .isNotNull()
                        .satisfies(g -> assertThat(String.valueOf(g.getSpec().getQueue()))
                                .isEqualTo("research"));
                assertThat(bridge.isRunning()).isTrue();
            }
        }
    }

    private static Pod create(KubernetesClient client, String ns, String name, String metadata) {
        return client.pods()
                .inNamespace(ns)
                .resource(K8S.unmarshal("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: %s, namespace: %s%s}
                        spec:
                          schedulerName: volcano
                          containers: [{name: a, image: busybox, resources: {requests: {cpu: "1"}}}]
                        """.formatted(name, ns, metadata.isEmpty() ? "" : ", " + metadata), Pod.class))
                .create();
    }

    private static Object queueOf(KubernetesClient client, String ns, String name) {
        GenericKubernetesResource group = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(ns)
                .withName(name)
                .get();
        assertThat(group).as(name).isNotNull();
        return ((Map<?, ?>) group.getAdditionalProperties().get("spec")).get("queue");
    }

    private static KafkaConsumer<String, byte[]> consumer(LaharInfra infra, String suffix) {
        Map<String, Object> config = new HashMap<>(infra.kafkaClientConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "ns-queue-it-reader-" + suffix);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(Topics.POD_GROUPS.name()));
        // Join the group and take the end positions before anything is sent.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.assignment().forEach(consumer::position);
        return consumer;
    }
}
