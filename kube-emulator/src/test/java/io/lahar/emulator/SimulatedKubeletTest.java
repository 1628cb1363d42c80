package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubelet reaches the API in-process, yet its writes are a client's: each carries the version
 * it was made from and is refused with 409 when another writer got there first (then made again
 * from the pod as it is), and every watcher of the API, a client's over TLS among them, is told of
 * each. The cluster is put together here as {@link EmbeddedCluster} does, with a writer slipped in
 * front of the kubelet's status writes.
 */
class SimulatedKubeletTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String POD = "/api/v1/namespaces/default/pods/p";

    private MockWebServer web;
    private SimulatedKubelet kubelet;
    private KubernetesClient client;
    private InProcessApi api;
    /** The answers to the kubelet's status writes, as "phase code". */
    private final List<String> kubeletWrites = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        ApiDiscovery discovery = ApiDiscovery.volcanoCluster();
        IndexedCrudDispatcher crud = new IndexedCrudDispatcher(discovery.customResourceContexts());
        BearerToken token = BearerToken.of(Optional.empty());
        web = new MockWebServer();
        web.useHttps();
        CrudStore store = new CrudStore(crud);
        ClusterDispatcher front = new ClusterDispatcher(
                discovery, store, Clock.systemUTC(), () -> "127.0.0.1:" + web.getPort(), web::reset, () -> true, token);
        web.setDispatcher(front);
        web.start(InetAddress.getByName("127.0.0.1"), 0);
        api = new InProcessApi(front, store, token);
        kubelet = new SimulatedKubelet(new ProbingApi(front, store, token), Clock.systemUTC(), 0.1);
        kubelet.start();
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl("https://127.0.0.1:" + web.getPort())
                .withOauthToken(token.value())
                .withNamespace("default")
                .withHttp2Disable(true)
                .withTrustCerts(true)
                .build();
        client = new KubernetesClientBuilder().withConfig(config).build();
        client.nodes()
                .resource(SimulatedNodes.toNode("node-0", NodeSpec.DEFAULT, 0, Instant.now()))
                .create();
    }

    @AfterEach
    void tearDown() {
        kubelet.close();
        client.close();
        web.shutdown();
    }

    @Test
    void itsStatusWritesAreRefusedWhenStaleAndReachAClientsWatchOverTls() {
        List<Pod> seen = new CopyOnWriteArrayList<>();
        try (Watch watch = client.pods().inNamespace("default").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                seen.add(pod);
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            client.pods()
                    .inNamespace("default")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("p")
                            .addToAnnotations(PodRunPlan.DURATION, "2s")
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("node-0")
                            .addNewContainer()
                            .withName("c")
                            .withImage("busybox")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();

            await().atMost(WAIT)
                    .until(() -> !seen.isEmpty() && phaseOf(seen.getLast()).equals("Succeeded"));
        }

        // Each of its writes was made from the pod as it was before the probe's: refused, then made again.
        assertThat(kubeletWrites).containsExactly("Running 409", "Running 200", "Succeeded 409", "Succeeded 200");
        List<String> phases = new ArrayList<>();
        for (Pod pod : seen) {
            String phase = phaseOf(pod);
            if (phases.isEmpty() || !phases.getLast().equals(phase)) {
                phases.add(phase);
            }
        }
        assertThat(phases).containsExactly("", "Running", "Succeeded");
        assertThat(seen.stream()
                        .map(p -> Long.parseLong(p.getMetadata().getResourceVersion()))
                        .toList())
                .isSorted()
                .doesNotHaveDuplicates();
        // Made again from the pod as the probe left it, the kubelet's writes kept what the probe wrote.
        assertThat(seen.getLast().getStatus().getConditions())
                .extracting(PodCondition::getType)
                .contains("lahar.io/probe-Running", "lahar.io/probe-Succeeded", "Ready", "PodScheduled");
    }

    private static String phaseOf(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? ""
                : pod.getStatus().getPhase();
    }

    /**
     * The kubelet's way to the API: before its first status write towards a phase, another writer
     * (as a bridge would) adds a condition to the pod's status, so the kubelet's write is one version behind.
     */
    private final class ProbingApi extends InProcessApi {

        ProbingApi(Dispatcher front, CrudStore store, BearerToken token) {
            super(front, store, token);
        }

        @Override
        MockResponse writeStatus(String path, JsonNode object) {
            if (!path.equals(POD)) {
                return super.writeStatus(path, object);
            }
            String phase = object.path("status").path("phase").asText();
            if (kubeletWrites.stream().noneMatch(w -> w.startsWith(phase + " "))) {
                probe(phase);
            }
            MockResponse answer = super.writeStatus(path, object);
            kubeletWrites.add(phase + " " + answer.code());
            return answer;
        }

        private void probe(String phase) {
            JsonNode pod = CrudStore.parse(CrudStore.bodyOf(api.send(HttpMethod.GET, POD, null)));
            ((ObjectNode) pod)
                    .withObjectProperty("status")
                    .withArrayProperty("conditions")
                    .addObject()
                    .put("type", "lahar.io/probe-" + phase)
                    .put("status", "True");
            MockResponse written = api.send(HttpMethod.PUT, POD + "/status", pod.toString());
            assertThat(written.code()).as("the probe's write").isEqualTo(200);
        }
    }
}
