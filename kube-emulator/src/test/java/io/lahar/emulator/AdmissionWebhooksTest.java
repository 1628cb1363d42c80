package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.FileInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ValidatingWebhookConfiguration stored in the emulator is honoured as a kube-apiserver honours
 * it: a matching create or update is sent to the webhook over HTTPS (trusting its caBundle), its
 * denial refuses the write with kubectl's wording, and a webhook that cannot be called refuses it
 * under failurePolicy Fail and lets it through under Ignore.
 */
class AdmissionWebhooksTest {

    private static final ResourceDefinitionContext VCJOBS = EmbeddedClusterTest.VCJOBS;
    private static final String STORE_PASS = "webhook-test";

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static HttpsServer webhook;
    private static String caBundle;
    private static final List<JsonNode> reviews = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=1}")));
        client = cluster.client();
        Path keystore = dir.resolve("webhook.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "webhook",
                        "-keyalg",
                        "EC",
                        "-dname",
                        "CN=127.0.0.1",
                        "-ext",
                        "san=ip:127.0.0.1",
                        "-validity",
                        "1",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keystore.toString(),
                        "-storepass",
                        STORE_PASS)
                .redirectErrorStream(true)
                .start();
        assertThat(keytool.waitFor())
                .as(new String(keytool.getInputStream().readAllBytes()))
                .isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = new FileInputStream(keystore.toFile())) {
            keys.load(in, STORE_PASS.toCharArray());
        }
        String pem = "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder()
                        .encodeToString(keys.getCertificate("webhook").getEncoded())
                + "\n-----END CERTIFICATE-----\n";
        caBundle = Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, STORE_PASS.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(km.getKeyManagers(), null, null);
        webhook = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.setHttpsConfigurator(new HttpsConfigurator(tls));
        // Denies a job whose name starts with "bad", echoing the request's uid.
        webhook.createContext("/jobs/validate", exchange -> {
            JsonNode review = Serialization.jsonMapper().readTree(exchange.getRequestBody());
            reviews.add(review);
            JsonNode request = review.path("request");
            boolean allowed = !request.path("object")
                    .path("metadata")
                    .path("name")
                    .asText()
                    .startsWith("bad");
            ObjectNode answer = Serialization.jsonMapper().createObjectNode();
            answer.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
            ObjectNode response = answer.putObject("response");
            response.put("uid", request.path("uid").asText()).put("allowed", allowed);
            if (!allowed) {
                response.putObject("status").put("code", 422).put("message", "spec.queue: queue \"nope\" not found");
            }
            byte[] body = answer.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        webhook.start();
    }

    @AfterAll
    static void stop() {
        webhook.stop(0);
        cluster.close();
    }

    private static void register(String name, String url, String failurePolicy) {
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration")
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("admissionregistration.k8s.io/v1")
                        .withKind("ValidatingWebhookConfiguration")
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withAdditionalProperties(Map.of(
                                "webhooks",
                                List.of(Map.of(
                                        "name",
                                        "validatejob.volcano.sh",
                                        "clientConfig",
                                        Map.of("url", url, "caBundle", caBundle),
                                        "rules",
                                        List.of(Map.of(
                                                "apiGroups", List.of("batch.volcano.sh"),
                                                "apiVersions", List.of("v1alpha1"),
                                                "operations", List.of("CREATE", "UPDATE"),
                                                "resources", List.of("jobs"))),
                                        "failurePolicy",
                                        failurePolicy,
                                        "timeoutSeconds",
                                        5,
                                        "sideEffects",
                                        "None",
                                        "admissionReviewVersions",
                                        List.of("v1")))))
                        .build())
                .createOr(existing -> existing.update());
    }

    private static void unregister(String name) {
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration")
                .withName(name)
                .delete();
    }

    private static GenericKubernetesResource job(String name) {
        return EmbeddedClusterRestartTest.job(name);
    }

    private String url() {
        return "https://127.0.0.1:" + webhook.getAddress().getPort() + "/jobs/validate";
    }

    @Test
    void aDenialRefusesTheCreateWithEveryReasonAndAnAllowedJobIsStored() {
        register("deny-bad", url(), "Fail");
        try {
            assertThatThrownBy(() -> client.genericKubernetesResources(VCJOBS)
                            .resource(job("bad-one"))
                            .create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(422);
                        assertThat(e.getStatus().getMessage())
                                .isEqualTo("admission webhook \"validatejob.volcano.sh\" denied the request:"
                                        + " spec.queue: queue \"nope\" not found");
                    });
            assertThat(client.genericKubernetesResources(VCJOBS)
                            .withName("bad-one")
                            .get())
                    .isNull();

            client.genericKubernetesResources(VCJOBS).resource(job("good-one")).create();
            JsonNode request = reviews.getLast().path("request");
            assertThat(request.path("operation").asText()).isEqualTo("CREATE");
            assertThat(request.path("kind").path("kind").asText()).isEqualTo("Job");
            assertThat(request.path("resource").path("resource").asText()).isEqualTo("jobs");
            assertThat(request.path("namespace").asText()).isEqualTo("default");
            assertThat(request.path("object").path("spec").path("minAvailable").asInt())
                    .isEqualTo(1);

            // An update is reviewed with the stored object as oldObject; a status write is not.
            GenericKubernetesResource stored = client.genericKubernetesResources(VCJOBS)
                    .withName("good-one")
                    .get();
            stored.setAdditionalProperty("spec", Map.of("minAvailable", 2));
            client.genericKubernetesResources(VCJOBS).resource(stored).update();
            request = reviews.getLast().path("request");
            assertThat(request.path("operation").asText()).isEqualTo("UPDATE");
            assertThat(request.path("oldObject")
                            .path("spec")
                            .path("minAvailable")
                            .asInt())
                    .isEqualTo(1);
            assertThat(request.path("object").path("spec").path("minAvailable").asInt())
                    .isEqualTo(2);
            int before = reviews.size();
            GenericKubernetesResource current = client.genericKubernetesResources(VCJOBS)
                    .withName("good-one")
                    .get();
            current.setAdditionalProperty("status", Map.of("state", Map.of("phase", "Pending")));
            client.genericKubernetesResources(VCJOBS).resource(current).updateStatus();
            assertThat(reviews).hasSize(before);
        } finally {
            unregister("deny-bad");
        }
    }

    @Test
    void anUnreachableWebhookRefusesUnderFailAndIsSkippedUnderIgnore() {
        String nowhere = "https://127.0.0.1:1/jobs/validate";
        register("unreachable", nowhere, "Fail");
        try {
            assertThatThrownBy(() -> client.genericKubernetesResources(VCJOBS)
                            .resource(job("while-down"))
                            .create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(500);
                        assertThat(e.getStatus().getMessage())
                                .startsWith(
                                        "Internal error occurred: failed calling webhook \"validatejob.volcano.sh\"");
                    });
            register("unreachable", nowhere, "Ignore");
            client.genericKubernetesResources(VCJOBS)
                    .resource(job("while-down"))
                    .create();
            assertThat(client.genericKubernetesResources(VCJOBS)
                            .withName("while-down")
                            .get())
                    .isNotNull();
        } finally {
            unregister("unreachable");
        }
    }
}
