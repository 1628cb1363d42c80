package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded cluster end to end, through fabric8's client and plain HTTP, as the bridge and
 * kubectl will use it. Durations run at a tenth of their stated length.
 */
class EmbeddedClusterTest {

    private static final double TIME_SCALE = 0.1;
    private static final String NS = "default";
    private static final ResourceDefinitionContext PODGROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1")
            .withPlural("podgroups")
            .withKind("PodGroup")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext VCJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh")
            .withVersion("v1alpha1")
            .withPlural("jobs")
            .withKind("Job")
            .withNamespaced(true)
            .build();
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static final HttpClient HTTP = TestHttp.client()
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                .withNodes(NodeSpec.parse("3x{cpu=8,memory=32Gi}+1x{name=gpu,cpu=16,memory=64Gi,gpu=4,label=pool=gpu,"
                        + "taint=nvidia.com/gpu=present:NoSchedule}"))
                .withTimeScale(TIME_SCALE));
        client = cluster.client();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void registersTheConfiguredNodesReady() {
        List<Node> nodes = client.nodes().list().getItems();

        assertThat(nodes)
                .extracting(n -> n.getMetadata().getName())
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2", "gpu-0");
        Node gpu = client.nodes().withName("gpu-0").get();
        assertThat(gpu.getStatus().getAllocatable())
                .containsEntry("nvidia.com/gpu", new Quantity("4"))
                .containsEntry("cpu", new Quantity("16"))
                .containsEntry("memory", new Quantity("64Gi"));
        assertThat(gpu.getMetadata().getLabels())
                .containsEntry("pool", "gpu")
                .containsEntry("kubernetes.io/hostname", "gpu-0");
        assertThat(gpu.getSpec().getTaints()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("nvidia.com/gpu");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(gpu.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
    }

    @Test
    void aBindingThroughTheSubresourceSetsTheNodeName() throws Exception {
        Pod pod = createPod(Map.of(), List.of("nginx"), null);
        String name = pod.getMetadata().getName();

        HttpResponse<String> response = bind(name, name, "node-1", Map.of("scheduler", "lahar"));

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(json(response.body()).path("status").asText()).isEqualTo("Success");
        Pod bound = client.pods().inNamespace(NS).withName(name).get();
        assertThat(bound.getSpec().getNodeName()).isEqualTo("node-1");
        assertThat(bound.getMetadata().getAnnotations()).containsEntry("scheduler", "lahar");
        assertThat(bound.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("PodScheduled");
            assertThat(c.getStatus()).isEqualTo("True");
        });
    }

    @Test
    void aBoundPodCannotBeBoundAgainAsOnARealApiserver() throws Exception {
        String name = createPod(Map.of(), List.of("nginx"), null).getMetadata().getName();
        assertThat(bind(name, name, "node-0", Map.of()).statusCode()).isEqualTo(201);

        HttpResponse<String> elsewhere = bind(name, name, "node-2", Map.of());
        HttpResponse<String> same = bind(name, name, "node-0", Map.of());

        assertThat(elsewhere.statusCode()).isEqualTo(409);
        assertThat(json(elsewhere.body()).path("reason").asText()).isEqualTo("Conflict");
        assertThat(json(elsewhere.body()).path("message").asText())
                .isEqualTo("Operation cannot be fulfilled on pods/binding \"" + name + "\": pod " + name
                        + " is already assigned to node \"node-0\"");
        assertThat(same.statusCode()).isEqualTo(409);
        assertThat(client.pods().inNamespace(NS).withName(name).get().getSpec().getNodeName())
                .isEqualTo("node-0");
    }

    @Test
    void aBindingIsRefusedWithTheApiserversCodes() throws Exception {
        HttpResponse<String> missing = bind("no-such-pod", "no-such-pod", "node-0", Map.of());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing.body()).path("message").asText()).isEqualTo("pods \"no-such-pod\" not found");

        String name = createPod(Map.of(), List.of("nginx"), null).getMetadata().getName();
        HttpResponse<String> noTarget = post(
                "/api/v1/namespaces/default/pods/" + name + "/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + name + "\"},\"target\":{}}");
        assertThat(noTarget.statusCode()).isEqualTo(422);
        assertThat(json(noTarget.body()).path("message").asText()).contains("target.name: Required value");

        HttpResponse<String> otherName = bind(name, "someone-else", "node-0", Map.of());
        assertThat(otherName.statusCode()).isEqualTo(400);

        HttpResponse<String> notJson = post("/api/v1/namespaces/default/pods/" + name + "/binding", "{not json");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(client.pods().inNamespace(NS).withName(name).get().getSpec().getNodeName())
                .isNull();
    }

    @Test
    void theLegacyBindingsCollectionBindsToo() {
        String name = createPod(Map.of(), List.of("nginx"), null).getMetadata().getName();

        client.bindings()
                .inNamespace(NS)
                .resource(new BindingBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewTarget()
                        .withKind("Node")
                        .withApiVersion("v1")
                        .withName("node-2")
                        .endTarget()
                        .build())
                .create();

        assertThat(client.pods().inNamespace(NS).withName(name).get().getSpec().getNodeName())
                .isEqualTo("node-2");
        assertThatThrownBy(() -> client.bindings()
                        .inNamespace(NS)
                        .resource(new BindingBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withNewTarget()
                                .withKind("Node")
                                .withName("node-1")
                                .endTarget()
                                .build())
                        .create())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void theKubeletRunsABoundPodToSucceededAfterItsSimDuration() throws Exception {
        String name = createPod(Map.of(PodRunPlan.DURATION, "30s"), List.of("run"), null)
                .getMetadata()
                .getName();
        bind(name, name, "node-0", Map.of());

        Pod running = awaitPhase(name, "Running");
        assertThat(running.getStatus().getPodIP()).startsWith("10.244.");
        assertThat(running.getStatus().getHostIP()).startsWith("10.0.");
        assertThat(running.getStatus().getStartTime()).isNotBlank();
        assertThat(running.getStatus().getContainerStatuses()).singleElement().satisfies(s -> {
            assertThat(s.getReady()).isTrue();
            assertThat(s.getState().getRunning()).isNotNull();
        });

        Pod done = awaitPhase(name, "Succeeded");
        ContainerStateTerminated terminated =
                done.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertThat(terminated.getExitCode()).isZero();
        assertThat(terminated.getReason()).isEqualTo("Completed");
        assertThat(done.getStatus().getConditions())
                .filteredOn(c -> c.getType().equals("Ready"))
                .extracting(PodCondition::getStatus)
                .containsExactly("False");
    }

    @Test
    void theKubeletFailsAPodWithItsSimExitCode() throws Exception {
        String name = createPod(Map.of(PodRunPlan.DURATION, "1s", PodRunPlan.EXIT_CODE, "2"), List.of("run"), null)
                .getMetadata()
                .getName();
        bind(name, name, "node-1", Map.of());

        Pod failed = awaitPhase(name, "Failed");

        ContainerStateTerminated terminated =
                failed.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertThat(terminated.getExitCode()).isEqualTo(2);
        assertThat(terminated.getReason()).isEqualTo("Error");
    }

    @Test
    void sleepInTheCommandIsHonoured() throws Exception {
        // sleep 40 at a tenth of real time: four seconds of Running (room for a slow machine), then Succeeded.
        String name = createPod(Map.of(), List.of("sh", "-c", "sleep 40"), null)
                .getMetadata()
                .getName();
        bind(name, name, "node-2", Map.of());
        awaitPhase(name, "Running");

        await().during(Duration.ofMillis(1000))
                .atMost(Duration.ofSeconds(3))
                .until(() -> phase(name).equals("Running"));
        awaitPhase(name, "Succeeded");
    }

    @Test
    void aPodWithoutDurationKeepsRunning() {
        String name =
                createPod(Map.of(), List.of("nginx"), "node-0").getMetadata().getName();

        awaitPhase(name, "Running");
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> phase(name).equals("Running"));
    }

    @Test
    void anUnboundPodStaysPending() {
        String name = createPod(Map.of(PodRunPlan.DURATION, "1s"), List.of("run"), null)
                .getMetadata()
                .getName();

        await().during(Duration.ofMillis(800))
                .atMost(Duration.ofSeconds(2))
                .until(() -> phase(name).equals("Pending"));
    }

    @Test
    void deletingANodeEvictsItsPods() {
        cluster.nodes().add("doomed", NodeSpec.DEFAULT);
        String a = createPod(Map.of(), List.of("nginx"), "doomed").getMetadata().getName();
        String b = createPod(Map.of(PodRunPlan.DURATION, "1h"), List.of("run"), "doomed")
                .getMetadata()
                .getName();
        String elsewhere =
                createPod(Map.of(), List.of("nginx"), "node-1").getMetadata().getName();
        awaitPhase(a, "Running");
        awaitPhase(b, "Running");
        awaitPhase(elsewhere, "Running");

        assertThat(cluster.nodes().delete("doomed")).isTrue();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.pods().inNamespace(NS).withName(a).get() == null
                        && client.pods().inNamespace(NS).withName(b).get() == null);
        assertThat(phase(elsewhere)).isEqualTo("Running");
    }

    @Test
    void aPodBoundToANodeThatDoesNotExistIsCollectedAfterThePodGcGrace() {
        String name =
                createPod(Map.of(), List.of("nginx"), "ghost").getMetadata().getName();

        await().during(Duration.ofMillis(1000))
                .atMost(Duration.ofSeconds(2))
                .until(() -> phase(name).equals("Pending"));
        // 40 s of pod-GC grace at a tenth of real time.
        await().atMost(Duration.ofSeconds(15))
                .until(() -> client.pods().inNamespace(NS).withName(name).get() == null);
    }

    @Test
    void discoveryAnswersWhatKubectlAsks() throws Exception {
        JsonNode api = json(get("/api", null).body());
        assertThat(api.path("kind").asText()).isEqualTo("APIVersions");
        assertThat(api.path("versions").toString()).isEqualTo("[\"v1\"]");

        HttpResponse<String> apisResponse = get("/apis", null);
        assertThat(apisResponse.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode apis = json(apisResponse.body());
        assertThat(apis.path("groups").findValuesAsText("name"))
                .contains(
                        "batch.volcano.sh",
                        "bus.volcano.sh",
                        "scheduling.volcano.sh",
                        "flow.volcano.sh",
                        "scheduling.k8s.io",
                        "networking.k8s.io");

        JsonNode core = json(get("/api/v1", null).body());
        assertThat(core.path("resources").findValuesAsText("name"))
                .contains(
                        "pods",
                        "pods/status",
                        "pods/binding",
                        "nodes",
                        "namespaces",
                        "events",
                        "bindings",
                        "persistentvolumeclaims");
        JsonNode networking = json(get("/apis/networking.k8s.io/v1", null).body());
        assertThat(resource(networking, "networkpolicies").path("kind").asText())
                .isEqualTo("NetworkPolicy");

        JsonNode batch = json(get("/apis/batch.volcano.sh/v1alpha1", null).body());
        JsonNode jobs = resource(batch, "jobs");
        assertThat(jobs.path("kind").asText()).isEqualTo("Job");
        assertThat(jobs.path("namespaced").asBoolean()).isTrue();
        assertThat(jobs.path("shortNames").toString()).isEqualTo("[\"vcjob\",\"vj\"]");

        JsonNode scheduling =
                json(get("/apis/scheduling.volcano.sh/v1beta1", null).body());
        assertThat(resource(scheduling, "podgroups").path("shortNames").toString())
                .contains("\"pg\"");
        assertThat(resource(scheduling, "queues").path("namespaced").asBoolean())
                .isFalse();
        assertThat(json(get("/apis/flow.volcano.sh/v1alpha1", null).body())
                        .path("resources")
                        .findValuesAsText("name"))
                .contains("jobflows", "jobtemplates");

        assertThat(get("/apis/nope.example.com/v1", null).statusCode()).isEqualTo(404);
        assertThat(json(get("/version", null).body()).path("gitVersion").asText())
                .isEqualTo(ApiDiscovery.GIT_VERSION);
    }

    /** What the svc plugin and a job's inline volumes ask the bridge to create, kept and deleted as the API server does. */
    @Test
    void networkPoliciesAndVolumeClaimsAreKeptAndDeleted() {
        var policy = new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder()
                .withNewMetadata()
                .withName("np-job")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .addToMatchLabels("volcano.sh/job-name", "np-job")
                .endPodSelector()
                .withPolicyTypes("Ingress")
                .endSpec()
                .build();
        var claim = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName("np-job-volume-0")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .addToRequests("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi"))
                .endResources()
                .endSpec()
                .build();
        client.network().networkPolicies().inNamespace(NS).resource(policy).create();
        client.persistentVolumeClaims().inNamespace(NS).resource(claim).create();

        assertThat(client.network()
                        .networkPolicies()
                        .inNamespace(NS)
                        .withName("np-job")
                        .get()
                        .getSpec()
                        .getPodSelector()
                        .getMatchLabels())
                .containsEntry("volcano.sh/job-name", "np-job");
        assertThat(client.persistentVolumeClaims()
                        .inNamespace(NS)
                        .withName("np-job-volume-0")
                        .get()
                        .getSpec()
                        .getResources()
                        .getRequests())
                .containsKey("storage");
        assertThat(client.network()
                        .networkPolicies()
                        .inNamespace(NS)
                        .withName("np-job")
                        .delete())
                .hasSize(1);
        assertThat(client.persistentVolumeClaims()
                        .inNamespace(NS)
                        .withName("np-job-volume-0")
                        .delete())
                .hasSize(1);
        assertThat(client.network().networkPolicies().inNamespace(NS).list().getItems())
                .noneMatch(p -> p.getMetadata().getName().equals("np-job"));
    }

    @Test
    void readyOnceStartedAsAScriptWaitsForIt() throws Exception {
        assertThat(get("/readyz", null).statusCode()).isEqualTo(200);
        assertThat(get("/livez", null).body()).isEqualTo("ok");
    }

    @Test
    void requestsTheStoreCannotServeAreAnsweredNotDropped() throws Exception {
        HttpResponse<String> options = HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.url() + "/api/v1/pods"))
                        .header("Authorization", "Bearer " + cluster.token())
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(options.statusCode()).isEqualTo(405);

        HttpResponse<String> badSelector = get(
                "/api/v1/pods?labelSelector="
                        + java.net.URLEncoder.encode("a in b", java.nio.charset.StandardCharsets.UTF_8),
                null);
        assertThat(badSelector.statusCode()).isEqualTo(400);
        assertThat(json(badSelector.body()).path("message").asText()).contains("\"a in b\" is not a label requirement");
    }

    @Test
    void volcanoCustomResourcesAreStoredAndListed() {
        var podGroups = client.genericKubernetesResources(PODGROUPS).inNamespace(NS);
        GenericKubernetesResource pg = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName("pg-" + NAMES.incrementAndGet())
                .withNamespace(NS)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("minMember", 2, "queue", "default"))
                .build();
        GenericKubernetesResource created = podGroups.resource(pg).create();
        created.setAdditionalProperty("status", Map.of("phase", "Inqueue"));
        podGroups.resource(created).updateStatus();

        GenericKubernetesResource job = new GenericKubernetesResourceBuilder()
                .withApiVersion("batch.volcano.sh/v1alpha1")
                .withKind("Job")
                .withNewMetadata()
                .withName("job-" + NAMES.incrementAndGet())
                .withNamespace(NS)
                .endMetadata()
                .addToAdditionalProperties(
                        "spec", Map.of("minAvailable", 1, "tasks", List.of(Map.of("name", "worker", "replicas", 1))))
                .build();
        client.genericKubernetesResources(VCJOBS).inNamespace(NS).resource(job).create();

        assertThat(podGroups.list().getItems())
                .extracting(r -> r.getMetadata().getName())
                .contains(pg.getMetadata().getName());
        assertThat(client.genericKubernetesResources(VCJOBS)
                        .inNamespace(NS)
                        .list()
                        .getItems())
                .extracting(r -> r.getMetadata().getName())
                .contains(job.getMetadata().getName());
        // The status subresource: a plain update keeps the stored status, as Volcano's CRDs declare.
        GenericKubernetesResource stored =
                podGroups.withName(pg.getMetadata().getName()).get();
        stored.setAdditionalProperty("status", Map.of("phase", "Running"));
        podGroups.resource(stored).update();
        assertThat(podGroups
                        .withName(pg.getMetadata().getName())
                        .get()
                        .getAdditionalProperties()
                        .get("status"))
                .isEqualTo(Map.of("phase", "Inqueue"));
        // And Volcano's default queue is there, Open.
        assertThat(client.genericKubernetesResources(EmbeddedCluster.QUEUES)
                        .withName("default")
                        .get()
                        .getAdditionalProperties()
                        .get("status"))
                .isEqualTo(Map.of("state", "Open"));
    }

    @Test
    void mergePatchesRemoveAndStrategicPatchesAdd() {
        Pod pod = new PodBuilder(podSpec(Map.of(), List.of("nginx"), null))
                .editMetadata()
                .addToLabels("keep", "yes")
                .addToLabels("drop", "yes")
                .endMetadata()
                .build();
        String name = client.pods()
                .inNamespace(NS)
                .resource(pod)
                .create()
                .getMetadata()
                .getName();

        client.pods()
                .inNamespace(NS)
                .withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"drop\":null}}}");
        client.pods()
                .inNamespace(NS)
                .withName(name)
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"metadata\":{\"labels\":{\"added\":\"1\"}}}");

        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName(name)
                        .get()
                        .getMetadata()
                        .getLabels())
                .isEqualTo(Map.of("keep", "yes", "added", "1"));
    }

    @Test
    void kubectlGetsServerSideTables() throws Exception {
        String name =
                createPod(Map.of(), List.of("nginx"), "node-2").getMetadata().getName();
        awaitPhase(name, "Running");

        HttpResponse<String> response = get(
                "/api/v1/namespaces/default/pods/" + name,
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");

        JsonNode table = json(response.body());
        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("rows").get(0).path("cells").toString())
                .startsWith("[\"" + name + "\",\"1/1\",\"Running\",0,");
    }

    @Test
    void listsAreNamedByTheirKindAsTypedClientsDecodeThem() throws Exception {
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.EventBuilder()
                        .withNewMetadata()
                        .withName("listed." + NAMES.incrementAndGet())
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind("Job")
                        .withName("listed")
                        .endInvolvedObject()
                        .withReason("Running")
                        .build())
                .create();

        // kubectl describe's query: its client decodes an EventList, and showed nothing of a List.
        JsonNode events = json(get(
                        "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dlisted&limit=500",
                        "application/json")
                .body());
        assertThat(events.path("kind").asText()).isEqualTo("EventList");
        assertThat(events.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(events.path("items")).isNotEmpty();
        JsonNode jobs = json(
                get("/apis/batch.volcano.sh/v1alpha1/jobs", "application/json").body());
        assertThat(jobs.path("kind").asText()).isEqualTo("JobList");
        assertThat(jobs.path("apiVersion").asText()).isEqualTo("batch.volcano.sh/v1alpha1");
        assertThat(jobs.path("items").isArray()).isTrue();
    }

    @Test
    void listsHonourSetBasedLabelSelectorsAndFieldSelectors() {
        String web = client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(podSpec(Map.of(), List.of("nginx"), null))
                        .editMetadata()
                        .addToLabels("sel", "web")
                        .endMetadata()
                        .build())
                .create()
                .getMetadata()
                .getName();
        String db = client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(podSpec(Map.of(), List.of("nginx"), "node-1"))
                        .editMetadata()
                        .addToLabels("sel", "db")
                        .endMetadata()
                        .build())
                .create()
                .getMetadata()
                .getName();
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(podSpec(Map.of(), List.of("nginx"), null))
                        .editMetadata()
                        .addToLabels("sel", "cache")
                        .endMetadata()
                        .build())
                .create();

        assertThat(client.pods()
                        .inNamespace(NS)
                        .withLabelIn("sel", "web", "db")
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder(web, db);
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withLabel("sel")
                        .withField("spec.nodeName", "node-1")
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly(db);
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withLabelNotIn("sel", "web", "db")
                        .withLabel("sel")
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getLabels().get("sel"))
                .containsExactly("cache");
    }

    @Test
    void deletingACollectionBySelectorDeletesOnlyWhatItSelects() {
        for (String tier : List.of("a", "b", "c")) {
            client.pods()
                    .inNamespace(NS)
                    .resource(new PodBuilder(podSpec(Map.of(), List.of("nginx"), null))
                            .editMetadata()
                            .addToLabels("wipe", tier)
                            .endMetadata()
                            .build())
                    .create();
        }

        client.pods().inNamespace(NS).withLabelIn("wipe", "a", "b").delete();

        assertThat(client.pods().inNamespace(NS).withLabel("wipe").list().getItems())
                .extracting(p -> p.getMetadata().getLabels().get("wipe"))
                .containsExactly("c");
    }

    @Test
    void anInformerWithAFieldSelectorSeesPodsArriveAndLeave() throws Exception {
        cluster.nodes().add("watched", NodeSpec.DEFAULT);
        var seen = new java.util.concurrent.ConcurrentHashMap<String, String>();
        try (var informer = client.pods()
                .inNamespace(NS)
                .withField("spec.nodeName", "watched")
                .inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        seen.put(pod.getMetadata().getName(), "added");
                    }

                    @Override
                    public void onUpdate(Pod oldPod, Pod newPod) {
                        seen.put(
                                newPod.getMetadata().getName(),
                                String.valueOf(newPod.getStatus().getPhase()));
                    }

                    @Override
                    public void onDelete(Pod pod, boolean unknown) {
                        seen.put(pod.getMetadata().getName(), "deleted");
                    }
                })) {
            String here =
                    createPod(Map.of(), List.of("nginx"), null).getMetadata().getName();
            String elsewhere = createPod(Map.of(), List.of("nginx"), "node-0")
                    .getMetadata()
                    .getName();
            assertThat(seen).doesNotContainKey(here);

            bind(here, here, "watched", Map.of());
            await().atMost(Duration.ofSeconds(10)).until(() -> "Running".equals(seen.get(here)));
            client.pods().inNamespace(NS).withName(here).delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> "deleted".equals(seen.get(here)));
            assertThat(seen).doesNotContainKey(elsewhere);
            assertThat(informer.getStore().list()).isEmpty();
        } finally {
            cluster.nodes().delete("watched");
        }
    }

    @Test
    void theKubeconfigWorksForFabric8(@TempDir Path dir) throws IOException {
        Path file = cluster.writeKubeconfig(dir.resolve("sub/kubeconfig.yaml"));

        String text = Files.readString(file);
        assertThat(text)
                .contains("server: " + cluster.url())
                .contains("EMULATED")
                .contains("token: " + cluster.token());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (KubernetesClient fromFile = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(text))
                .build()) {
            assertThat(fromFile.getMasterUrl().toString()).startsWith(cluster.url());
            assertThat(fromFile.nodes().list().getItems()).hasSizeGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void kubectlReadsPodsPodGroupsAndVolcanoJobs(@TempDir Path dir) throws Exception {
        Path kubectl = Path.of("/usr/bin/kubectl");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(kubectl), "kubectl is not installed");
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
        String pod =
                createPod(Map.of(), List.of("nginx"), "node-0").getMetadata().getName();
        String pg = "kubectl-pg-" + NAMES.incrementAndGet();
        client.genericKubernetesResources(PODGROUPS)
                .inNamespace(NS)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("scheduling.volcano.sh/v1beta1")
                        .withKind("PodGroup")
                        .withNewMetadata()
                        .withName(pg)
                        .withNamespace(NS)
                        .endMetadata()
                        .addToAdditionalProperties("spec", Map.of("minMember", 1))
                        .build())
                .create();
        String job = "kubectl-job-" + NAMES.incrementAndGet();
        client.genericKubernetesResources(VCJOBS)
                .inNamespace(NS)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("batch.volcano.sh/v1alpha1")
                        .withKind("Job")
                        .withNewMetadata()
                        .withName(job)
                        .withNamespace(NS)
                        .endMetadata()
                        .addToAdditionalProperties("spec", Map.of("minAvailable", 1))
                        .build())
                .create();

        Process process = new ProcessBuilder(
                        kubectl.toString(), "--kubeconfig", kubeconfig.toString(), "get", "pods,podgroups,vcjob")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes());

        assertThat(process.waitFor()).as(output).isZero();
        assertThat(output)
                .contains("pod/" + pod)
                .contains("podgroup.scheduling.volcano.sh/" + pg)
                .contains("job.batch.volcano.sh/" + job)
                .contains("MINMEMBER");
    }

    @Test
    void theOpenApiV3DocumentsTellKubectlThatTheServerValidatesFields() throws Exception {
        JsonNode root = json(get("/openapi/v3", "application/json").body());
        String url = root.path("paths")
                .path("apis/batch.volcano.sh/v1alpha1")
                .path("serverRelativeURL")
                .asText();
        assertThat(url).startsWith("/openapi/v3/apis/batch.volcano.sh/v1alpha1");

        JsonNode doc = json(get(url, "application/json").body());
        JsonNode patch = doc.path("paths")
                .path("/apis/batch.volcano.sh/v1alpha1/namespaces/{namespace}/jobs/{name}")
                .path("patch");
        assertThat(patch.path("x-kubernetes-group-version-kind").path("kind").asText())
                .isEqualTo("Job");
        assertThat(patch.path("parameters").findValuesAsText("name")).contains("fieldValidation");
        assertThat(get("/openapi/v3/apis/nothing.example/v1", "application/json")
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void kubectlAppliesAVolcanoJobWithoutTurningValidationOff(@TempDir Path dir) throws Exception {
        Path kubectl = Path.of("/usr/bin/kubectl");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(kubectl), "kubectl is not installed");
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
        String job = "applied-" + NAMES.incrementAndGet();
        Path manifest = Files.writeString(dir.resolve("job.yaml"), """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  tasks: [{name: w, replicas: 1, template: {spec: {containers: [{name: w, image: busybox}]}}}]
                """.formatted(job));

        Process process = new ProcessBuilder(
                        kubectl.toString(), "--kubeconfig", kubeconfig.toString(), "apply", "-f", manifest.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes());

        assertThat(process.waitFor()).as(output).isZero();
        assertThat(output).contains("job.batch.volcano.sh/" + job + " created");
        assertThat(client.genericKubernetesResources(VCJOBS)
                        .inNamespace(NS)
                        .withName(job)
                        .get())
                .isNotNull();
    }

    // --- helpers ---

    private static Pod createPod(Map<String, String> annotations, List<String> command, String nodeName) {
        return client.pods()
                .inNamespace(NS)
                .resource(podSpec(annotations, command, nodeName))
                .create();
    }

    private static Pod podSpec(Map<String, String> annotations, List<String> command, String nodeName) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("pod-" + NAMES.incrementAndGet())
                .withNamespace(NS)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withNodeName(nodeName)
                .withSchedulerName("volcano")
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withCommand(command)
                .endContainer()
                .endSpec()
                .build();
    }

    private static String phase(String name) {
        Pod pod = client.pods().inNamespace(NS).withName(name).get();
        if (pod == null) {
            return "<deleted>";
        }
        return pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? "Pending"
                : pod.getStatus().getPhase();
    }

    private static Pod awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> phase(name).equals(phase));
        return client.pods().inNamespace(NS).withName(name).get();
    }

    private static HttpResponse<String> bind(
            String podInPath, String nameInBody, String node, Map<String, String> annotations) throws Exception {
        String annotationJson = annotations.isEmpty()
                ? ""
                : ",\"annotations\":" + io.fabric8.kubernetes.client.utils.Serialization.asJson(annotations);
        return post(
                "/api/v1/namespaces/default/pods/" + podInPath + "/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + nameInBody + "\""
                        + annotationJson + "},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"" + node
                        + "\"}}");
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(cluster.url() + path))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + cluster.token())
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cluster.url() + path))
                .GET()
                .header("Authorization", "Bearer " + cluster.token());
        if (accept != null) {
            request.header("Accept", accept);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String body) {
        return CrudStore.parse(body);
    }

    private static JsonNode resource(JsonNode list, String name) {
        for (JsonNode r : list.path("resources")) {
            if (name.equals(r.path("name").asText())) {
                return r;
            }
        }
        throw new AssertionError("no resource " + name + " in " + list);
    }
}
