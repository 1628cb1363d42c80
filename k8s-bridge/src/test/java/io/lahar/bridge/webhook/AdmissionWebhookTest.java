package io.lahar.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.Kubectl;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Manifests;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Volcano's Jobs webhook served by the bridge: an AdmissionReview v1 in, core admission's verdict
 * out (every violation with its path, the uid echoed); over HTTPS with the certificate made at
 * start; and, registered with the kube-emulator as Volcano's chart registers it, {@code kubectl
 * apply} of an invalid Job refused with every reason while a valid one is created; a PodGroup
 * created in the default queue of a namespace annotated with a queue stored in that queue.
 */
class AdmissionWebhookTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path INVALID = Path.of("..", "examples", "invalid-job.yaml");
    private static final Path VALID = Path.of("..", "examples", "tf-job.yaml");

    private static EmbeddedCluster cluster;
    private static AdmissionWebhook webhook;
    private static KnownObjects known;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
        known = KnownObjects.watch(cluster.client());
        webhook = AdmissionWebhook.start(known);
        WebhookRegistration.register(cluster.client(), webhook);
    }

    @AfterAll
    static void stop() {
        webhook.close();
        known.close();
        cluster.close();
    }

    private static ObjectNode review(String operation, Object object) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "7c4e-" + operation).put("operation", operation);
        request.set("object", JSON.valueToTree(object));
        return review;
    }

    private static JsonNode job(JsonNode review, AdmissionContext ctx) {
        return AdmissionReviews.review(review, ValidatedKind.JOBS, m -> ctx);
    }

    private static Object yaml(Path file) throws Exception {
        return Manifests.yamlMapper().readValue(Files.readString(file), Object.class);
    }

    @Test
    void anInvalidJobIsDeniedWithEveryViolationAndItsPath() throws Exception {
        JsonNode answer = job(review("CREATE", yaml(INVALID)), AdmissionContext.freshInstall());
        JsonNode response = answer.path("response");
        assertThat(answer.path("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(response.path("uid").asText()).isEqualTo("7c4e-CREATE");
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.path("status").path("code").asInt()).isEqualTo(400);
        assertThat(response.path("status").path("message").asText())
                .contains("spec.maxRetry: ", "spec.tasks[1].name: ", "spec.minAvailable: ", "; ");
    }

    @Test
    void aValidJobIsAllowedAndAQueueTheBridgeHasNotReadIsNot() throws Exception {
        JsonNode allowed = job(review("CREATE", yaml(VALID)), AdmissionContext.freshInstall());
        assertThat(allowed.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(allowed.path("response").path("uid").asText()).isEqualTo("7c4e-CREATE");

        @SuppressWarnings("unchecked")
        Map<String, Object> job = (Map<String, Object>) yaml(VALID);
        ((Map<String, Object>) job.get("spec")).put("queue", "research");
        JsonNode denied = job(review("CREATE", job), AdmissionContext.freshInstall());
        assertThat(denied.path("response").path("status").path("message").asText())
                .isEqualTo("spec.queue: queue \"research\" not found");

        GenericKubernetesResource research = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("research")
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("weight", 1), "status", Map.of("state", "Open")))
                .build();
        AdmissionContext withResearch = KnownObjects.ofQueues(List.of(research));
        JsonNode known = job(review("CREATE", job), withResearch);
        assertThat(known.path("response").path("allowed").asBoolean()).isTrue();

        research.setAdditionalProperty("status", Map.of("state", "Closed"));
        JsonNode closed = job(review("CREATE", job), KnownObjects.ofQueues(List.of(research)));
        assertThat(closed.path("response").path("status").path("message").asText())
                .startsWith("spec.queue: can only submit job to queue with state Open");
    }

    @Test
    void aReviewOfNoJobIsDeniedWithTheReasonNotLeftUnanswered() {
        JsonNode none = job(review("CREATE", "a string"), AdmissionContext.freshInstall());
        assertThat(none.path("response").path("allowed").asBoolean()).isFalse();
        assertThat(none.path("response").path("status").path("message").asText())
                .isEqualTo(": the review has no object with metadata");
        JsonNode pod = job(
                review("CREATE", Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "p"))),
                AdmissionContext.freshInstall());
        assertThat(pod.path("response").path("uid").asText()).isEqualTo("7c4e-CREATE");
        assertThat(pod.path("response").path("allowed").asBoolean()).isFalse();
        assertThat(pod.path("response").path("status").path("message").asText())
                .isEqualTo(": the review is of a v1 Pod, not of a batch.volcano.sh/v1alpha1 Job");
    }

    @Test
    void theBridgesOwnMirrorOfAnAdmittedJobPasses() throws Exception {
        GenericKubernetesResource mirror = JSON.convertValue(yaml(INVALID), GenericKubernetesResource.class);
        mirror.getMetadata()
                .setAnnotations(Map.of(
                        Mirrors.MIRROR_OF,
                        "uid-1",
                        Mirrors.SPEC_HASH,
                        Mirrors.specHash(mirror.getAdditionalProperties().get("spec"))));
        JsonNode answer = job(review("CREATE", mirror), AdmissionContext.freshInstall());
        assertThat(answer.path("response").path("allowed").asBoolean()).isTrue();
    }

    @Test
    void theEndpointAnswersOverHttpsTrustingOnlyItsCaBundle() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry(
                "webhook",
                CertificateFactory.getInstance("X.509")
                        .generateCertificate(
                                new ByteArrayInputStream(Base64.getDecoder().decode(webhook.caBundle()))));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        try (HttpClient http = HttpClient.newBuilder().sslContext(tls).build()) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(webhook.url(ValidatedKind.JOBS)))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    review("CREATE", yaml(INVALID)).toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode answer = JSON.readTree(response.body()).path("response");
            assertThat(answer.path("uid").asText()).isEqualTo("7c4e-CREATE");
            assertThat(answer.path("allowed").asBoolean()).isFalse();
        }
    }

    @Test
    void kubectlApplyOfAnInvalidJobIsRefusedWithEveryReasonAndAValidOneIsCreated(@TempDir Path dir) throws Exception {
        KubernetesClient client = cluster.client();
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName(ValidatedKind.JOBS.configuration())
                        .get()
                        .getWebhooks()
                        .getFirst()
                        .getName())
                .isEqualTo("validatejob.volcano.sh");
        if (!Kubectl.installed()) {
            return; // the emulator's own test covers the refusal through the API
        }
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
        Process apply = new ProcessBuilder(
                        "/usr/bin/kubectl",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "apply",
                        "-n",
                        "default",
                        "-f",
                        INVALID.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(apply.getInputStream().readAllBytes());
        assertThat(apply.waitFor()).as(output).isEqualTo(1);
        assertThat(output)
                .contains(
                        "admission webhook \"validatejob.volcano.sh\" denied the request: ",
                        "spec.maxRetry: ",
                        "spec.tasks[1].name: ",
                        "spec.minAvailable: ");
        assertThat(Kubectl.run(kubeconfig, "apply", "-n", "default", "-f", VALID.toString()))
                .contains("job.batch.volcano.sh/tf-job created");
        assertThat(Kubectl.run(kubeconfig, "get", "vcjob", "-n", "default", "-o", "name"))
                .contains("tf-job")
                .doesNotContain("broken");
    }

    private static GenericKubernetesResource cr(Map<String, Object> manifest) {
        return JSON.convertValue(manifest, GenericKubernetesResource.class);
    }

    @Test
    void everyKindIsRegisteredAndRefusedThroughTheApiServerWithEveryReason() throws Exception {
        KubernetesClient client = cluster.client();
        for (ValidatedKind kind : ValidatedKind.values()) {
            var configuration = client.admissionRegistration()
                    .v1()
                    .validatingWebhookConfigurations()
                    .withName(kind.configuration())
                    .get();
            assertThat(configuration.getWebhooks().getFirst().getName()).isEqualTo(kind.webhook());
            assertThat(configuration
                            .getWebhooks()
                            .getFirst()
                            .getRules()
                            .getFirst()
                            .getOperations())
                    .isEqualTo(kind.operations());
        }
        Map<ValidatedKind, String> invalid = Map.of(
                ValidatedKind.QUEUES, "invalid-queue.yaml",
                ValidatedKind.JOB_FLOWS, "invalid-jobflow-cycle.yaml",
                ValidatedKind.JOB_TEMPLATES, "invalid-jobtemplate.yaml",
                ValidatedKind.CRON_JOBS, "invalid-cronjob.yaml");
        for (var e : invalid.entrySet()) {
            Map<String, Object> manifest = KindReviewsTest.example(e.getValue());
            String expected = AdmissionReviews.review(
                            KindReviewsTest.review("CREATE", manifest, null),
                            e.getKey(),
                            m -> AdmissionContext.freshInstall())
                    .path("response")
                    .path("status")
                    .path("message")
                    .asText();
            var resources = client.genericKubernetesResources(e.getKey().resource());
            var target = e.getKey().resource().isNamespaceScoped() ? resources.inNamespace("default") : resources;
            assertThatThrownBy(() -> target.resource(cr(manifest)).create())
                    .as(e.getValue())
                    .isInstanceOfSatisfying(KubernetesClientException.class, x -> {
                        assertThat(x.getCode()).isEqualTo(400);
                        assertThat(x.getStatus().getMessage())
                                .isEqualTo("admission webhook \"" + e.getKey().webhook() + "\" denied the request: "
                                        + expected);
                    });
        }
        var queues = client.genericKubernetesResources(ValidatedKind.QUEUES.resource());
        queues.resource(
                        cr(
                                KindReviewsTest.yaml(
                                        "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team}\nspec: {weight: 1}\n")))
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> known.context(null).queue("team").isPresent());
        queues.resource(
                        cr(
                                KindReviewsTest.yaml(
                                        "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: dev}\nspec: {parent: team}\n")))
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !known.context(null).childrenOf("team").isEmpty());
        assertThatThrownBy(() -> queues.withName("team").delete())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        x -> assertThat(x.getStatus().getMessage())
                                .isEqualTo(
                                        "admission webhook \"validatequeue.volcano.sh\" denied the request:"
                                                + " metadata.name: queue team can not be deleted because it has 1 child queues: dev"));
        queues.withName("dev").delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> known.context(null).childrenOf("team").isEmpty());
        queues.withName("team").delete();
        assertThat(queues.withName("team").get()).isNull();
    }

    private static GenericKubernetesResource podGroup(
            String namespace, String name, String queue, Map<String, String> labels) {
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        spec.put("minMember", 1);
        if (queue != null) {
            spec.put("queue", queue);
        }
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(labels)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }

    private static Object queueOf(String namespace, String name) {
        Object spec = cluster.client()
                .genericKubernetesResources(MutatedKind.POD_GROUPS.resource())
                .inNamespace(namespace)
                .withName(name)
                .get()
                .getAdditionalProperties()
                .get("spec");
        return ((Map<?, ?>) spec).get("queue");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPodGroupCreatedInTheDefaultQueueGoesToItsNamespacesQueue() {
        KubernetesClient client = cluster.client();
        var configuration = client.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName("volcano-admission-service-podgroups-mutate")
                .get();
        assertThat(configuration.getWebhooks().getFirst().getName()).isEqualTo("mutatepodgroup.volcano.sh");
        assertThat(configuration.getWebhooks().getFirst().getRules().getFirst().getOperations())
                .containsExactly("CREATE");
        client.resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName("team-a")
                        .withAnnotations(Map.of("scheduling.volcano.sh/queue-name", "team-a-queue"))
                        .endMetadata()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> known.namespaceAnnotations("team-a").isPresent());
        var groups = client.genericKubernetesResources(MutatedKind.POD_GROUPS.resource());

        groups.resource(podGroup("team-a", "defaulted", "default", Map.of())).create();
        groups.resource(podGroup("team-a", "unnamed", null, Map.of())).create();
        groups.resource(podGroup("team-a", "chosen", "research", Map.of())).create();
        groups.resource(podGroup("team-a", "laharsown", "default", Map.of("app.kubernetes.io/managed-by", "lahar")))
                .create();
        groups.resource(podGroup("default", "elsewhere", "default", Map.of())).create();
        assertThat(queueOf("team-a", "defaulted")).isEqualTo("team-a-queue");
        assertThat(queueOf("team-a", "unnamed")).isEqualTo("team-a-queue");
        assertThat(queueOf("team-a", "chosen")).isEqualTo("research");
        assertThat(queueOf("team-a", "laharsown")).isEqualTo("default");
        assertThat(queueOf("default", "elsewhere")).isEqualTo("default");

        // CREATE only: a group moved back to the default queue stays there.
        groups.inNamespace("team-a").withName("chosen").edit(g -> {
            ((Map<String, Object>) g.getAdditionalProperties().get("spec")).put("queue", "default");
            return g;
        });
        assertThat(queueOf("team-a", "chosen")).isEqualTo("default");
    }
}
