package io.lahar.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.KubernetesJson;
import io.lahar.bridge.reconcile.Retry;
import io.lahar.bridge.webhook.AdmissionWebhook;
import io.lahar.bridge.webhook.KnownObjects;
import io.lahar.bridge.webhook.WebhookRegistration;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.serde.RegistrySerdes;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Starts the bridge with the service, on the cluster Quarkus' Kubernetes client is configured for
 * (kubeconfig, in-cluster service account, or quarkus.kubernetes-client.*). For a demo that cluster
 * is the kube-emulator, a process of its own whose kubeconfig the bridge is pointed at.
 */
@ApplicationScoped
public class BridgeService {

    private static final Logger LOG = Logger.getLogger(BridgeService.class);
    /** The options of the cluster the bridge once started in-process; the kube-emulator has them now. */
    static final String EMBEDDED_CLUSTER_PREFIX = "lahar.bridge.embedded-cluster.";
    /** The same options as environment variables. */
    static final String EMBEDDED_CLUSTER_ENV_PREFIX = "LAHAR_BRIDGE_EMBEDDED_CLUSTER_";

    @ConfigProperty(name = "lahar.bridge.enabled", defaultValue = "true")
    boolean enabled;
    /** The kafka. settings (Quarkus' default-kafka-broker map): every client's connection. */
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @ConfigProperty(name = "lahar.bridge.group-id", defaultValue = "lahar-k8s-bridge")
    String groupId;

    @ConfigProperty(name = "lahar.bridge.watch-volcano-api", defaultValue = "true")
    boolean watchVolcanoApi;

    @ConfigProperty(name = "lahar.bridge.namespace")
    Optional<String> namespace;

    @ConfigProperty(name = "lahar.bridge.publish-nodes", defaultValue = "true")
    boolean publishNodes;

    /** The scheduler's names: a bare pod asking for one of them gets a PodGroup and is scheduled by Lahar. */
    @ConfigProperty(name = "lahar.bridge.scheduler-names", defaultValue = BridgeLabels.DEFAULT_SCHEDULER)
    List<String> schedulerNames;

    /**
     * Serve Volcano's admission webhooks (validating Jobs, Queues, JobFlows, JobTemplates, CronJobs;
     * mutating PodGroups into their namespace's queue) and register them with the cluster (it must
     * reach 127.0.0.1).
     */
    @ConfigProperty(name = "lahar.bridge.admission-webhook", defaultValue = "false")
    boolean admissionWebhook;

    /**
     * How long a pod event may wait for others to share its produce request (0 to 1 s): fewer,
     * fuller produces, and fewer fetches by every reader of the topic.
     */
    @ConfigProperty(name = "lahar.bridge.publish-linger", defaultValue = "25ms")
    Duration publishLinger;

    @Inject
    Config config;

    @Inject
    Instance<KubernetesClient> client;

    /** The mapper of the client's KubernetesSerialization (the same instance, configured by fabric8). */
    @Inject
    @KubernetesClientObjectMapper
    ObjectMapper clientJson;

    private Bridge bridge;
    private AdmissionWebhook webhook;
    private KnownObjects known;

    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            LOG.info("k8s-bridge disabled (lahar.bridge.enabled=false)");
            return;
        }
        refuseEmbeddedClusterOptions(
                StreamSupport.stream(config.getPropertyNames().spliterator(), false)
                        .toList());
        // After the client exists: its serialization has configured the mapper (KubernetesJson.fast).
        client.get();
        KubernetesJson.fast(clientJson);
        if (admissionWebhook) {
            // Before the mirrors write: a configuration of the previous run (its port, its
            // certificate) kept by the cluster would refuse their Jobs until it is replaced.
            known = KnownObjects.watch(client.get());
            webhook = AdmissionWebhook.start(known);
            Retry.standard().run(() -> WebhookRegistration.register(client.get(), webhook));
        }
        bridge = Bridge.start(
                client.get(),
                new Bridge.Settings(
                        KafkaClients.of(kafkaConfig),
                        registryUrl,
                        RegistrySerdes.Credentials.configured(key -> config.getOptionalValue(key, String.class)),
                        groupId,
                        watchVolcanoApi,
                        namespace.filter(n -> !n.isBlank()),
                        publishNodes,
                        java.util.Set.copyOf(schedulerNames),
                        publishLinger),
                Clock.systemUTC());
    }

    /**
     * A setting of the cluster the bridge no longer starts would otherwise be ignored, and the bridge
     * would quietly talk to whatever cluster the client finds: refuse to start instead, saying where
     * the emulator went.
     */
    static void refuseEmbeddedClusterOptions(List<String> propertyNames) {
        List<String> stale = propertyNames.stream()
                .filter(n -> n.startsWith(EMBEDDED_CLUSTER_PREFIX) || n.startsWith(EMBEDDED_CLUSTER_ENV_PREFIX))
                .sorted()
                .toList();
        if (!stale.isEmpty()) {
            throw new IllegalStateException(
                    String.join(", ", stale) + ": the bridge no longer starts an embedded"
                            + " cluster; run the kube-emulator (java -jar kube-emulator/target/kube-emulator.jar --kubeconfig FILE,"
                            + " see docs/embedded-cluster.md) and point the bridge at its kubeconfig (-Dkubeconfig=FILE or KUBECONFIG)");
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (webhook != null) {
            webhook.close();
            known.close();
        }
        if (bridge != null) {
            bridge.close();
        }
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean running() {
        return bridge != null && bridge.isRunning();
    }

    /** Why the input loop puts records off, or empty while it reads (or the bridge is off). */
    public Optional<String> holding() {
        return bridge == null ? Optional.empty() : bridge.holding();
    }
}
