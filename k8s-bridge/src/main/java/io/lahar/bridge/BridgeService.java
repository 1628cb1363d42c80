package io.lahar.bridge;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * Starts the bridge with the service. The cluster is the one Quarkus' Kubernetes client is
 * configured for (kubeconfig, in-cluster service account, or quarkus.kubernetes-client.*), unless
 * {@code lahar.bridge.embedded-cluster.enabled} starts the embedded cluster in-process for a demo.
 */
@ApplicationScoped
public class BridgeService {

    private static final Logger LOG = Logger.getLogger(BridgeService.class);

    @ConfigProperty(name = "lahar.bridge.enabled", defaultValue = "true")
    boolean enabled;
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
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
    @ConfigProperty(name = "lahar.bridge.embedded-cluster.enabled", defaultValue = "false")
    boolean embedded;
    @ConfigProperty(name = "lahar.bridge.embedded-cluster.nodes", defaultValue = "4x{cpu=8,memory=32Gi,gpu=0}")
    String embeddedNodes;
    @ConfigProperty(name = "lahar.bridge.embedded-cluster.port", defaultValue = "0")
    int embeddedPort;
    @ConfigProperty(name = "lahar.bridge.embedded-cluster.kubeconfig")
    Optional<String> embeddedKubeconfig;
    @ConfigProperty(name = "lahar.bridge.embedded-cluster.time-scale", defaultValue = "1")
    double embeddedTimeScale;

    @Inject
    Instance<KubernetesClient> configuredClient;

    private EmbeddedCluster cluster;
    private Bridge bridge;

    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            LOG.info("k8s-bridge disabled (lahar.bridge.enabled=false)");
            return;
        }
        KubernetesClient client;
        if (embedded) {
            EmbeddedCluster.Options options = EmbeddedCluster.Options.defaults()
                    .withPort(embeddedPort)
                    .withNodes(NodeSpec.parse(embeddedNodes))
                    .withTimeScale(embeddedTimeScale);
            if (embeddedKubeconfig.isPresent()) {
                options = options.withKubeconfig(Path.of(embeddedKubeconfig.get()));
            }
            cluster = EmbeddedCluster.start(options);
            client = cluster.client();
            LOG.infof("embedded cluster at %s%s", cluster.url(),
                    embeddedKubeconfig.map(p -> ", kubeconfig " + p).orElse(""));
        } else {
            client = configuredClient.get();
        }
        bridge = Bridge.start(client, new Bridge.Settings(bootstrapServers, registryUrl, groupId, watchVolcanoApi,
                        namespace.filter(n -> !n.isBlank()), publishNodes),
                Clock.systemUTC());
    }

    void onStop(@Observes ShutdownEvent event) {
        if (bridge != null) {
            bridge.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    public boolean running() {
        return bridge != null && bridge.isRunning();
    }
}
