package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's status writes, as the store keeps them, are the JSON the kubelet wrote when it
 * built them through fabric8's {@code Pod} model: the golden file holds what that code wrote (the
 * pod's uid replaced by {@code UID}, its resource version left out), field for field, in order.
 * The pods cover a binding's status, one or several containers and init containers, a non-zero
 * exit code, a node with no address, a status of shapes fabric8's model rewrites (a null, fields
 * out of its order, fields it does not know, empty lists), one of fields out of order only, and a
 * pod Running since before the kubelet started.
 */
class SimulatedKubeletStatusTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-04T05:06:07.890Z"), ZoneOffset.UTC);
    private static final String GOLDEN = "kubelet-status-writes.txt";

    private SimulatedKubelet kubelet;
    private InProcessApi api;
    /** The kubelet's accepted status writes, one line each: pod name, then the status as stored. */
    private final List<String> writes = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        ApiDiscovery discovery = ApiDiscovery.volcanoCluster();
        CrudStore store = new CrudStore(new IndexedCrudDispatcher(discovery.customResourceContexts()));
        BearerToken token = BearerToken.of(Optional.empty());
        ClusterDispatcher front =
                new ClusterDispatcher(discovery, store, CLOCK, () -> "127.0.0.1:1", () -> {}, () -> true, token);
        api = new InProcessApi(front, store, token);
        kubelet = new SimulatedKubelet(new RecordingApi(front, store, token), CLOCK, 0);
        kubelet.start();
        create(
                "/api/v1/nodes",
                Serialization.asJson(SimulatedNodes.toNode("node-0", NodeSpec.DEFAULT, 0, CLOCK.instant())));
        create("/api/v1/nodes", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"bare\"}}");
    }

    @AfterEach
    void tearDown() {
        kubelet.close();
    }

    @Test
    void itsStatusWritesAreTheJsonFabric8sModelGave() throws IOException {
        // One container, bound through the Binding subresource, succeeds.
        createPod("""
                {"metadata":{"name":"one","annotations":{"lahar.io/sim-duration":"1s"}},
                 "spec":{"containers":[{"name":"c","image":"busybox"}]}}""");
        bind("one", "node-0");
        awaitWrites(2);

        // Two containers, one with no image, on a node with no address: fails with exit code 3.
        createPod("""
                {"metadata":{"name":"failed","annotations":{"lahar.io/sim-duration":"2s","lahar.io/sim-exit-code":"3"}},
                 "spec":{"nodeName":"bare","containers":[{"name":"a","image":"busybox"},{"name":"b"}]}}""");
        awaitWrites(4);

        // Init containers and three containers timed by their sleeps; exit codes by job version.
        createPod("""
                {"metadata":{"name":"several","annotations":{"lahar.io/sim-exit-codes":"1,0","volcano.sh/job-version":"1"}},
                 "spec":{"initContainers":[{"name":"init-a","image":"i","command":["true"]},{"name":"init-b","image":"i"}],
                  "containers":[{"name":"x","image":"img","command":["sh","-c","sleep 1"]},
                   {"name":"y","image":"img","args":["sleep","2s"]},{"name":"z","image":"img","command":["sleep","1"]}]}}""");
        bind("several", "node-0");
        awaitWrites(6);

        // A status of shapes the model rewrites: a null, fields out of order, unknown fields, empty lists.
        createPod("""
                {"metadata":{"name":"odd","annotations":{"lahar.io/sim-duration":"1s","lahar.io/sim-exit-code":"255"}},
                 "spec":{"nodeName":"node-0","containers":[{"name":"c","image":"busybox"}]},
                 "status":{"qosClass":"BestEffort","phase":"Pending","hostIPs":[],"zzUnknown":{"b":1,"a":[true,null]},
                  "conditions":[{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-01-01T00:00:00Z"},
                   {"type":"Ready","status":"False","reason":"NotYet","message":"waiting"},
                   {"status":"True","type":"lahar.io/custom","observedGeneration":2}],
                  "initContainerStatuses":[{"name":"i","ready":true,"restartCount":0,"image":"i","imageID":"",
                   "state":{"terminated":{"reason":"Completed","exitCode":0}}}]}}""");
        awaitWrites(8);

        // Running since before this kubelet started: only its end is written, from its containers' start.
        createPod("""
                {"metadata":{"name":"resumed","annotations":{"lahar.io/sim-duration":"1s"}},
                 "spec":{"nodeName":"node-0","containers":[{"name":"c","image":"busybox"},{"name":"d","image":"busybox"}]},
                 "status":{"phase":"Running","startTime":"2026-03-04T05:00:00Z","podIP":"10.9.9.9",
                  "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-03-04T05:00:00Z"}],
                  "containerStatuses":[{"name":"c","state":{"running":{"startedAt":"2026-03-04T05:00:01Z"}}}]}}""");
        awaitWrites(9);

        // No duration: Running until deleted.
        createPod("""
                {"metadata":{"name":"forever"},"spec":{"nodeName":"node-0","containers":[{"name":"c","image":"nginx"}]}}""");
        awaitWrites(10);

        // A status the model writes as it is but for its fields' order.
        createPod("""
                {"metadata":{"name":"reordered","annotations":{"lahar.io/sim-duration":"1s"}},
                 "spec":{"nodeName":"node-0","containers":[{"image":"busybox","name":"c"}]},
                 "status":{"qosClass":"Guaranteed","reason":"r","podIPs":[{"ip":"1.2.3.4"}],"phase":"Pending","message":"m",
                  "conditions":[{"type":"PodScheduled","status":"True","reason":"Bound","lastTransitionTime":"2026-01-01T00:00:00Z"},
                   {"type":"Ready","message":"not yet","status":"False"}],"nominatedNodeName":"node-0",
                  "containerStatuses":[{"state":{"waiting":{"reason":"ContainerCreating"}},"name":"c","ready":false}]}}""");
        awaitWrites(12);

        String actual = String.join("\n", writes) + "\n";
        String golden;
        try (InputStream in = getClass().getResourceAsStream(GOLDEN)) {
            golden = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!actual.equals(golden)) {
            // Beside the build's output, to compare with the golden file.
            Files.writeString(Path.of("target", GOLDEN + ".actual"), actual);
        }
        assertThat(actual).isEqualTo(golden);
    }

    private void awaitWrites(int count) {
        await().atMost(WAIT).until(() -> writes.size() >= count);
        assertThat(writes).hasSize(count);
    }

    private void createPod(String json) {
        JsonNode pod = CrudStore.parse(json);
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod)
                .put("apiVersion", "v1")
                .put("kind", "Pod");
        create("/api/v1/namespaces/default/pods", pod.toString());
    }

    private void bind(String pod, String node) {
        MockResponse answer = api.send(
                HttpMethod.POST,
                "/api/v1/namespaces/default/pods/" + pod + "/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + pod
                        + "\"},\"target\":{\"kind\":\"Node\",\"name\":\"" + node + "\"}}");
        assertThat(answer.code()).as(CrudStore.bodyOf(answer)).isEqualTo(201);
    }

    private void create(String path, String json) {
        MockResponse answer = api.send(HttpMethod.POST, path, json);
        assertThat(answer.code()).as(CrudStore.bodyOf(answer)).isEqualTo(201);
    }

    /** The kubelet's way to the API, noting each status write the store took, as the store keeps it. */
    private final class RecordingApi extends InProcessApi {

        RecordingApi(Dispatcher front, CrudStore store, BearerToken token) {
            super(front, store, token);
        }

        @Override
        MockResponse writeStatus(String path, JsonNode object) {
            MockResponse answer = super.writeStatus(path, object);
            if (answer.code() < 300) {
                JsonNode stored = CrudStore.parse(CrudStore.bodyOf(answer));
                String uid = stored.path("metadata").path("uid").asText();
                writes.add(stored.path("metadata").path("name").asText() + " "
                        + Serialization.asJson(stored.get("status")).replace(uid, "UID"));
            }
            return answer;
        }
    }
}
