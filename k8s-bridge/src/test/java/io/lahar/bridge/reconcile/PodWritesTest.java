package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.PodTemplates;
import io.lahar.bridge.mapping.Pods;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PodWrites} against the embedded cluster, each write beside the client's DSL call it
 * replaces: the same objects stored, the same exceptions (code, Status, message) for every refusal.
 */
class PodWritesTest {

    private static final String DSL = "writes-dsl";
    private static final String RAW = "writes-raw";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger NAMES = new AtomicInteger();

    /** Templates as the engine writes them, and what a PodTemplateSpec may hold besides. */
    private static final List<String> TEMPLATES = List.of(
            TestIntents.template("sleep 5"), """
            {"metadata":{"labels":{"volcano.sh/task-index":"0"},"annotations":{"a":"b"}},
             "spec":{"nodeName":"sneaky","schedulerName":"other","futureField":{"x":[1,{"y":null}]},
              "containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],
               "resources":{"limits":{"nvidia.com/gpu":"1"}},"readinessProbe":{"periodSeconds":5}}],
              "hostname":"tf-ps-0","subdomain":"tf","priority":7,
              "tolerations":[{"key":"k","operator":"Exists","tolerationSeconds":30}]}}""", "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static PodWrites writes;
    private static String node;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                .withNodes(NodeSpec.parse("1x{cpu=64,memory=256Gi}"))
                .withTimeScale(0.1));
        client = cluster.client();
        for (String ns : List.of(DSL, RAW)) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .endMetadata()
                            .build())
                    .create();
        }
        writes = new PodWrites(client);
        node = client.nodes().list().getItems().getFirst().getMetadata().getName();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static Pod pod(String ns, String job, String template) {
        PodIntent intent = TestIntents.create(ns, job, "work", 0, 3, template);
        return Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.empty(), new PodTemplates());
    }

    @Test
    void theCreatedPodAndItsBindingAreTheOnesTheDslWritesAndTheAnswerIsReadAsTheDslReadsIt() throws IOException {
        for (String template : TEMPLATES) {
            String job = "same" + NAMES.incrementAndGet();
            Pod viaDsl = client.pods()
                    .inNamespace(DSL)
                    .resource(pod(DSL, job, template))
                    .create();
            CreatedPods.Created viaRaw = writes.create(RAW, pod(RAW, job, template));

            Pod stored =
                    client.pods().inNamespace(RAW).withName(job + "-work-0").get();
            // What the bridge keeps of the answer is what it kept of the whole pod the DSL read.
            CreatedPods known = new CreatedPods();
            known.created("k", stored);
            assertThat(known.get("k")).as(template).hasValue(viaRaw);
            assertThat(viaRaw.jobVersion()).isEqualTo(3);
            assertThat(withoutIdentity(stored)).as(template).isEqualTo(withoutIdentity(stored(DSL, job)));

            client.bindings()
                    .inNamespace(DSL)
                    .resource(binding(DSL, job + "-work-0", viaDsl.getMetadata().getUid(), node))
                    .create();
            writes.bind(RAW, binding(RAW, job + "-work-0", viaRaw.uid(), node));
            assertThat(stored(RAW, job).getSpec().getNodeName()).isEqualTo(node);
            assertThat(JSON.<JsonNode>valueToTree(stored(RAW, job).getSpec()))
                    .isEqualTo(JSON.<JsonNode>valueToTree(stored(DSL, job).getSpec()));

            assertThat(client.pods().inNamespace(DSL).withName(job + "-work-0").delete())
                    .hasSize(1);
            assertThat(writes.delete(RAW, job + "-work-0")).isTrue();
            assertThat(stored(RAW, job)).isNull();
            // Gone: the DSL answers no details, the raw delete false.
            assertThat(client.pods().inNamespace(DSL).withName(job + "-work-0").delete())
                    .isEmpty();
            assertThat(writes.delete(RAW, job + "-work-0")).isFalse();
        }
    }

    @Test
    void aCreatesAnswerIsReadOnlyAsFarAsItsMetadataWithTheAnnotationBeforeTheLabel() throws IOException {
        String body = """
                {"kind":"Pod","spec":{"containers":[{"name":"c"}]},"metadata":{"name":"p","labels":
                {"volcano.sh/job-version":"9","x":"y"},"uid":"u-1","managedFields":[{"a":{"b":[1]}}],
                "annotations":{"n":{"deep":1},"volcano.sh/job-version":" 4 "},"resourceVersion":"17"},
                "status":{"phase":"Pending"}}""";
        assertThat(PodWrites.created(body.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new CreatedPods.Created("u-1", 4, 17));
        assertThat(PodWrites.created(
                        "{\"metadata\":{\"labels\":{\"volcano.sh/job-version\":\"2\"},\"uid\":\"u\",\"resourceVersion\":\"x\"}}"
                                .getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new CreatedPods.Created("u", 2, 0));
        assertThat(PodWrites.created("{\"metadata\":{}}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new CreatedPods.Created(null, 0, 0));
        assertThatThrownBy(() -> PodWrites.created("[]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void everyRefusalIsTheExceptionTheDslThrows() {
        String job = "refused" + NAMES.incrementAndGet();
        String template = TEMPLATES.getFirst();
        Pod dslPod =
                client.pods().inNamespace(DSL).resource(pod(DSL, job, template)).create();
        CreatedPods.Created rawPod = writes.create(RAW, pod(RAW, job, template));
        String name = job + "-work-0";

        // 409 AlreadyExists.
        same(
                409,
                () -> client.pods()
                        .inNamespace(DSL)
                        .resource(pod(DSL, job, template))
                        .create(),
                () -> writes.create(RAW, pod(RAW, job, template)));
        // 404: no such pod to bind.
        same(
                404,
                () -> client.bindings()
                        .inNamespace(DSL)
                        .resource(binding(DSL, "missing", null, node))
                        .create(),
                () -> {
                    writes.bind(RAW, binding(RAW, "missing", null, node));
                    return null;
                });
        // 409: the UID precondition fails.
        same(
                409,
                () -> client.bindings()
                        .inNamespace(DSL)
                        .resource(binding(DSL, name, "another-uid", node))
                        .create(),
                () -> {
                    writes.bind(RAW, binding(RAW, name, "another-uid", node));
                    return null;
                },
                rawPod.uid(),
                dslPod.getMetadata().getUid());
        // 422: a binding without a target.
        same(
                422,
                () -> client.bindings()
                        .inNamespace(DSL)
                        .resource(binding(DSL, name, dslPod.getMetadata().getUid(), null))
                        .create(),
                () -> {
                    writes.bind(RAW, binding(RAW, name, rawPod.uid(), null));
                    return null;
                });
    }

    @Test
    void theClientsTokenIsSentAndAWrongOneRefusedAsTheDslIsRefused() {
        Config wrong = new ConfigBuilder(client.getConfiguration())
                .withOauthToken("not-the-token")
                .build();
        try (KubernetesClient stranger =
                new KubernetesClientBuilder().withConfig(wrong).build()) {
            PodWrites strangers = new PodWrites(stranger);
            String job = "stranger" + NAMES.incrementAndGet();
            same(
                    401,
                    () -> stranger.pods()
                            .inNamespace(DSL)
                            .resource(pod(DSL, job, TEMPLATES.getFirst()))
                            .create(),
                    () -> strangers.create(RAW, pod(RAW, job, TEMPLATES.getFirst())));
        }
    }

    @Test
    void anUnreachableApiFailsAsTheDslFails() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Config unreachable = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + closed)
                .withRequestRetryBackoffLimit(0)
                .build();
        try (KubernetesClient away =
                new KubernetesClientBuilder().withConfig(unreachable).build()) {
            KubernetesClientException dsl = thrown(() -> away.pods()
                    .inNamespace(DSL)
                    .resource(pod(DSL, "away", TEMPLATES.getFirst()))
                    .create());
            KubernetesClientException raw =
                    thrown(() -> new PodWrites(away).create(DSL, pod(DSL, "away", TEMPLATES.getFirst())));
            assertThat(raw.getCode()).isEqualTo(dsl.getCode());
            assertThat(raw.getMessage()).isEqualTo(dsl.getMessage());
            assertThat(causes(raw)).isEqualTo(causes(dsl));

            // A delete's failure names the operation.
            KubernetesClientException dslDelete = thrown(
                    () -> away.pods().inNamespace(DSL).withName("away-work-0").delete());
            KubernetesClientException rawDelete = thrown(() -> new PodWrites(away).delete(DSL, "away-work-0"));
            assertThat(rawDelete.getCode()).isEqualTo(dslDelete.getCode());
            assertThat(rawDelete.getMessage()).isEqualTo(dslDelete.getMessage()).contains("delete");
            assertThat(causes(rawDelete)).isEqualTo(causes(dslDelete));
        }
    }

    @Test
    void anAnswerOfTheServersTroubleIsTransientAndRetriedAsTheDslsIs() throws IOException {
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            boolean trouble = requests.incrementAndGet() % 3 != 0;
            byte[] body = (trouble
                            ? "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"etcd away\","
                                    + "\"reason\":\"ServiceUnavailable\",\"code\":503}"
                            : "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u-9\",\"resourceVersion\":\"5\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(trouble ? 503 : 201, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        Config troubled = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .withRequestRetryBackoffLimit(0)
                .build();
        try (KubernetesClient away =
                new KubernetesClientBuilder().withConfig(troubled).build()) {
            PodWrites troubledWrites = new PodWrites(away);
            KubernetesClientException dsl = thrown(() -> away.pods()
                    .inNamespace(DSL)
                    .resource(pod(DSL, "p", TEMPLATES.getFirst()))
                    .create());
            requests.set(0);
            KubernetesClientException raw =
                    thrown(() -> troubledWrites.create(DSL, pod(DSL, "p", TEMPLATES.getFirst())));
            assertThat(raw.getCode()).isEqualTo(dsl.getCode()).isEqualTo(503);
            assertThat(raw.getStatus()).isEqualTo(dsl.getStatus());
            assertThat(raw.getMessage()).isEqualTo(dsl.getMessage());
            assertThat(Retry.isTransient(raw)).isTrue();

            requests.set(0);
            Retry retry = new Retry(3, Duration.ofMillis(1), Duration.ofMillis(1), d -> {});
            assertThat(retry.call(() -> troubledWrites.create(DSL, pod(DSL, "p", TEMPLATES.getFirst()))))
                    .isEqualTo(new CreatedPods.Created("u-9", 0, 5));
            assertThat(requests).hasValue(3);
        } finally {
            server.stop(0);
        }
    }

    private static void same(int code, Supplier<?> dsl, Supplier<?> raw) {
        same(code, dsl, raw, RAW, RAW);
    }

    /**
     * Both calls fail with {@code code}, the same Status and the same message (the same URL
     * requested), but for the namespace and {@code rawUid} in the raw call's.
     */
    private static void same(int code, Supplier<?> dsl, Supplier<?> raw, String rawUid, String dslUid) {
        KubernetesClientException expected = thrown(dsl);
        KubernetesClientException actual = thrown(raw);
        assertThat(expected.getCode()).isEqualTo(code);
        assertThat(actual.getCode()).isEqualTo(code);
        assertThat(client.getKubernetesSerialization()
                        .asJson(actual.getStatus())
                        .replace(RAW, DSL)
                        .replace(rawUid, dslUid))
                .isEqualTo(client.getKubernetesSerialization().asJson(expected.getStatus()));
        assertThat(actual.getMessage().replace(RAW, DSL).replace(rawUid, dslUid))
                .isEqualTo(expected.getMessage());
        assertThat(causes(actual)).isEqualTo(causes(expected));
    }

    private static KubernetesClientException thrown(Supplier<?> call) {
        KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class, call::get);
        assertThat(e).as("a KubernetesClientException").isNotNull();
        return e;
    }

    private static List<String> causes(Throwable e) {
        List<String> classes = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            classes.add(t.getClass().getName());
        }
        return classes;
    }

    private static Pod stored(String ns, String job) {
        return client.pods().inNamespace(ns).withName(job + "-work-0").get();
    }

    /** The pod as stored, without what the cluster gives each object of its own. */
    private static JsonNode withoutIdentity(Pod pod) throws IOException {
        ObjectNode tree =
                (ObjectNode) JSON.readTree(client.getKubernetesSerialization().asJson(pod));
        ObjectNode metadata = (ObjectNode) tree.get("metadata");
        metadata.remove(List.of("uid", "resourceVersion", "creationTimestamp", "namespace", "managedFields"));
        ((ObjectNode) metadata.get("labels")).remove("volcano.sh/job-namespace");
        return tree;
    }

    private static Binding binding(String ns, String pod, String uid, String target) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(ns)
                .withUid(uid)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(target)
                .endTarget()
                .build();
    }
}
