package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
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
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
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
 * under failurePolicy Fail and lets it through under Ignore. A MutatingWebhookConfiguration's
 * JSONPatch is applied before the validating webhooks review the object, and the object is stored
 * as patched.
 */
class AdmissionWebhooksTest {

    private static final ResourceDefinitionContext VCJOBS = EmbeddedClusterTest.VCJOBS;
    private static final String STORE_PASS = "webhook-test";

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static HttpsServer webhook;
    private static String caBundle;
    private static final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
    private static final List<JsonNode> mutations = new CopyOnWriteArrayList<>();
    private static final AtomicInteger handshakes = new AtomicInteger();

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
        webhook.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters parameters) {
                handshakes.incrementAndGet(); // once per connection the emulator opens
                super.configure(parameters);
            }
        });
        webhook.createContext("/slow", exchange -> {
            try {
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        webhook.createContext("/jobs/validate", exchange -> {
            JsonNode review = Serialization.jsonMapper().readTree(exchange.getRequestBody());
            reviews.add(review);
            JsonNode request = review.path("request");
            // Denies a name starting "bad", a label verdict=deny, and the delete of a name starting "keep".
            JsonNode subject = request.path("operation").asText().equals("DELETE")
                    ? request.path("oldObject")
                    : request.path("object");
            String name = subject.path("metadata").path("name").asText();
            boolean allowed = request.path("operation").asText().equals("DELETE")
                    ? !name.startsWith("keep")
                    : !name.startsWith("bad")
                            && !subject.path("metadata")
                                    .path("labels")
                                    .path("verdict")
                                    .asText()
                                    .equals("deny");
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
        webhook.createContext("/jobs/mutate", exchange -> {
            JsonNode review = Serialization.jsonMapper().readTree(exchange.getRequestBody());
            mutations.add(review);
            JsonNode request = review.path("request");
            ObjectNode answer = Serialization.jsonMapper().createObjectNode();
            answer.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
            ObjectNode response = answer.putObject("response");
            response.put("uid", request.path("uid").asText()).put("allowed", true);
            JsonNode subject = request.path("object").isObject() ? request.path("object") : request.path("oldObject");
            JsonNode metadata = subject.path("metadata");
            String patch = switch (metadata.path("labels").path("mutate").asText()) {
                case "queue" -> "[{\"op\":\"add\",\"path\":\"/spec/queue\",\"value\":\"patched\"}]";
                case "deny" -> "[{\"op\":\"add\",\"path\":\"/metadata/labels/verdict\",\"value\":\"deny\"}]";
                case "count" ->
                    "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"seen\":\""
                            + metadata.path("annotations").path("seen").asText() + "+\"}}]";
                case "broken", "untyped", "delete" -> "[{\"op\":\"remove\",\"path\":\"/spec/nowhere\"}]";
                default -> "";
            };
            if (!patch.isEmpty()) {
                response.put("patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
                if (!metadata.path("labels").path("mutate").asText().equals("untyped")) {
                    response.put("patchType", "JSONPatch");
                }
            }
            byte[] body = answer.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        webhook.setExecutor(Executors.newCachedThreadPool());
        webhook.start();
    }

    @AfterAll
    static void stop() {
        webhook.stop(0);
        cluster.close();
    }

    private static void register(String name, String url, String failurePolicy) {
        register(name, webhook(url, failurePolicy, List.of("CREATE", "UPDATE"), Map.of()));
    }

    /** Volcano's Jobs webhook, calling {@code url}; {@code extra} adds or replaces its fields. */
    private static Map<String, Object> webhook(
            String url, String failurePolicy, List<String> operations, Map<String, Object> extra) {
        Map<String, Object> webhook = new java.util.LinkedHashMap<>(Map.of(
                "name",
                "validatejob.volcano.sh",
                "clientConfig",
                Map.of("url", url, "caBundle", caBundle),
                "rules",
                List.of(Map.of(
                        "apiGroups", List.of("batch.volcano.sh"),
                        "apiVersions", List.of("v1alpha1"),
                        "operations", operations,
                        "resources", List.of("jobs"))),
                "failurePolicy",
                failurePolicy,
                "timeoutSeconds",
                5,
                "sideEffects",
                "None",
                "admissionReviewVersions",
                List.of("v1")));
        webhook.putAll(extra);
        return webhook;
    }

    private static void register(String name, Map<String, Object> webhook) {
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration")
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("admissionregistration.k8s.io/v1")
                        .withKind("ValidatingWebhookConfiguration")
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withAdditionalProperties(Map.of("webhooks", List.of(webhook)))
                        .build())
                .createOr(existing -> existing.update());
    }

    /** fabric8 retries an answer of 500 with a back-off: a client that tries once shows the one answer, at once. */
    private static KubernetesClient once() {
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
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
        try (KubernetesClient once = once()) {
            assertThatThrownBy(() -> once.genericKubernetesResources(VCJOBS)
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

    private static io.fabric8.kubernetes.client.dsl.MixedOperation<
                    GenericKubernetesResource,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                    io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
            jobs() {
        return client.genericKubernetesResources(VCJOBS);
    }

    private static GenericKubernetesResource job(String namespace, String name, Map<String, String> labels) {
        GenericKubernetesResource job = job(name);
        job.getMetadata().setNamespace(namespace);
        job.getMetadata().setLabels(labels);
        return job;
    }

    private static void refused(org.assertj.core.api.ThrowableAssert.ThrowingCallable write, String message) {
        assertThatThrownBy(write)
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getStatus().getMessage()).isEqualTo(message));
    }

    private static final String DENIED = "admission webhook \"validatejob.volcano.sh\" denied the request:"
            + " spec.queue: queue \"nope\" not found";

    @Test
    void oneClientAndItsConnectionServeEveryReview() {
        register("reuse", url(), "Fail");
        try {
            int before = handshakes.get();
            for (int i = 0; i < 20; i++) {
                jobs().resource(job("reused-" + i)).create();
            }
            // A client per review would open a connection and shake hands twenty times.
            assertThat(handshakes.get() - before).isLessThanOrEqualTo(2);
        } finally {
            unregister("reuse");
        }
    }

    @Test
    void everyKindOfPatchIsReviewedWithTheObjectAsPatched() {
        jobs().resource(job("patched")).create();
        register("patches", url(), "Fail");
        var patched = jobs().inNamespace("default").withName("patched");
        try {
            String deny = "{\"metadata\":{\"labels\":{\"verdict\":\"deny\"}}}";
            refused(() -> patched.patch(PatchContext.of(PatchType.JSON_MERGE), deny), DENIED);
            refused(() -> patched.patch(PatchContext.of(PatchType.STRATEGIC_MERGE), deny), DENIED);
            refused(
                    () -> patched.patch(
                            PatchContext.of(PatchType.JSON),
                            "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"verdict\":\"deny\"}}]"),
                    DENIED);
            refused(
                    () -> jobs().resource(job("default", "patched", Map.of("verdict", "deny")))
                            .fieldManager("test")
                            .forceConflicts()
                            .serverSideApply(),
                    DENIED);
            assertThat(patched.get().getMetadata().getLabels()).isNullOrEmpty();

            patched.patch(
                    PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"verdict\":\"ok\"}}]");
            JsonNode request = reviews.getLast().path("request");
            assertThat(request.path("operation").asText()).isEqualTo("UPDATE");
            assertThat(request.path("object")
                            .path("metadata")
                            .path("labels")
                            .path("verdict")
                            .asText())
                    .isEqualTo("ok");
            assertThat(request.path("oldObject").path("metadata").path("labels").isMissingNode())
                    .isTrue();
            assertThat(patched.get().getMetadata().getLabels()).containsEntry("verdict", "ok");

            // Server-side apply of an object that does not exist is its create, reviewed as one.
            refused(
                    () -> jobs().resource(job("bad-applied"))
                            .fieldManager("test")
                            .forceConflicts()
                            .serverSideApply(),
                    DENIED);
            jobs().resource(job("applied"))
                    .fieldManager("test")
                    .forceConflicts()
                    .serverSideApply();
            assertThat(reviews.getLast().path("request").path("operation").asText())
                    .isEqualTo("CREATE");
            assertThat(jobs().inNamespace("default").withName("applied").get()).isNotNull();
        } finally {
            unregister("patches");
        }
    }

    @Test
    void aDeleteIsReviewedWhenTheRulesNameIt() {
        jobs().resource(job("keep-me")).create();
        jobs().resource(job("let-go")).create();
        register("no-deletes", url(), "Fail");
        int before = reviews.size();
        jobs().resource(job("let-go")).delete();
        assertThat(reviews).hasSize(before); // its rules name CREATE and UPDATE only
        unregister("no-deletes");
        jobs().resource(job("let-go-too")).create();
        register("deletes", webhook(url(), "Fail", List.of("CREATE", "UPDATE", "DELETE"), Map.of()));
        try {
            refused(
                    () -> jobs().inNamespace("default").withName("keep-me").delete(),
                    "admission webhook \"validatejob.volcano.sh\" denied the request: spec.queue: queue \"nope\" not found");
            assertThat(jobs().inNamespace("default").withName("keep-me").get()).isNotNull();
            JsonNode request = reviews.getLast().path("request");
            assertThat(request.path("operation").asText()).isEqualTo("DELETE");
            assertThat(request.path("object").isNull()).isTrue();
            assertThat(request.path("oldObject").path("metadata").path("name").asText())
                    .isEqualTo("keep-me");
            assertThat(request.path("options").path("kind").asText()).isEqualTo("DeleteOptions");
            jobs().inNamespace("default").withName("let-go-too").delete();
            assertThat(jobs().inNamespace("default").withName("let-go-too").get())
                    .isNull();
        } finally {
            unregister("deletes");
            jobs().inNamespace("default").withName("keep-me").delete();
        }
    }

    @Test
    void theScopeAndTheNamespaceAndObjectSelectorsChooseWhatIsReviewed() {
        register(
                "cluster-scope",
                webhook(
                        url(),
                        "Fail",
                        List.of("*"),
                        Map.of(
                                "rules",
                                List.of(Map.of(
                                        "apiGroups", List.of("*"),
                                        "apiVersions", List.of("*"),
                                        "operations", List.of("*"),
                                        "resources", List.of("*"),
                                        "scope", "Cluster")))));
        try {
            jobs().resource(job("bad-but-namespaced")).create(); // jobs are namespaced: not reviewed
        } finally {
            unregister("cluster-scope");
        }
        client.namespaces().withName("volcano-system").edit(n -> {
            n.getMetadata().setLabels(Map.of("webhooks", "off"));
            return n;
        });
        register(
                "namespaces",
                webhook(
                        url(),
                        "Fail",
                        List.of("CREATE", "UPDATE"),
                        Map.of(
                                "namespaceSelector",
                                Map.of(
                                        "matchExpressions",
                                        List.of(
                                                Map.of(
                                                        "key",
                                                        "kubernetes.io/metadata.name",
                                                        "operator",
                                                        "NotIn",
                                                        "values",
                                                        List.of("kube-system")),
                                                Map.of(
                                                        "key",
                                                        "webhooks",
                                                        "operator",
                                                        "NotIn",
                                                        "values",
                                                        List.of("off")))))));
        try {
            jobs().resource(job("kube-system", "bad-in-kube-system", Map.of())).create();
            jobs().resource(job("volcano-system", "bad-where-off", Map.of())).create();
            refused(() -> jobs().resource(job("bad-in-default")).create(), DENIED);
        } finally {
            unregister("namespaces");
        }
        register(
                "objects",
                webhook(
                        url(),
                        "Fail",
                        List.of("CREATE", "UPDATE"),
                        Map.of("objectSelector", Map.of("matchLabels", Map.of("review", "yes")))));
        try {
            jobs().resource(job("default", "bad-unlabelled", Map.of())).create();
            refused(
                    () -> jobs().resource(job("default", "bad-labelled", Map.of("review", "yes")))
                            .create(),
                    DENIED);
        } finally {
            unregister("objects");
        }
    }

    @Test
    void aWebhookSlowerThanItsTimeoutFailsTheWriteAfterTheTimeout() {
        register(
                "slow",
                webhook(
                        url().replace("/jobs/validate", "/slow"),
                        "Fail",
                        List.of("CREATE"),
                        Map.of("timeoutSeconds", 1)));
        try (KubernetesClient once = once()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> once.genericKubernetesResources(VCJOBS)
                            .resource(job("too-slow"))
                            .create())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getStatus().getMessage())
                                    .startsWith(
                                            "Internal error occurred: failed calling webhook \"validatejob.volcano.sh\""));
            assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(java.time.Duration.ofMillis(2_900));
        } finally {
            unregister("slow");
        }
    }

    @Test
    void aDryRunIsReviewedOnlyByWebhooksWithoutSideEffectsAndStoresNothing() {
        register("dry", webhook(url(), "Fail", List.of("CREATE", "UPDATE"), Map.of("sideEffects", "Unknown")));
        try {
            refused(
                    () -> jobs().resource(job("dry-unknown")).dryRun().create(),
                    "admission webhook \"validatejob.volcano.sh\" does not support dry run");
            register("dry", webhook(url(), "Fail", List.of("CREATE", "UPDATE"), Map.of("sideEffects", "NoneOnDryRun")));
            refused(() -> jobs().resource(job("bad-dry")).dryRun().create(), DENIED);
            jobs().resource(job("dry-none")).dryRun().create();
            assertThat(reviews.getLast().path("request").path("dryRun").asBoolean())
                    .isTrue();
            assertThat(jobs().inNamespace("default").withName("dry-none").get()).isNull();
        } finally {
            unregister("dry");
        }
    }

    private static final String MUTATING = "MutatingWebhookConfiguration";

    /** A mutating webhook for Jobs calling {@code /jobs/mutate}, which patches a Job by its label {@code mutate}. */
    private void registerMutating(String name, List<String> operations, String failurePolicy) {
        Map<String, Object> hook = webhook(
                url().replace("/validate", "/mutate"),
                failurePolicy,
                operations,
                Map.of("name", "mutatejob.test", "reinvocationPolicy", "Never"));
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", MUTATING)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("admissionregistration.k8s.io/v1")
                        .withKind(MUTATING)
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withAdditionalProperties(Map.of("webhooks", List.of(hook)))
                        .build())
                .createOr(existing -> existing.update());
    }

    private static void unregisterMutating(String name) {
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", MUTATING)
                .withName(name)
                .delete();
    }

    private static GenericKubernetesResource labelled(String name, String mutate) {
        return job("default", name, Map.of("mutate", mutate));
    }

    @Test
    void aMutatingWebhooksPatchIsStoredAndTheValidatingWebhooksReviewThePatchedObject() {
        registerMutating("mutate-jobs", List.of("CREATE", "UPDATE"), "Fail");
        register("validate-jobs", url(), "Fail");
        try {
            jobs().resource(labelled("mutated", "queue")).create();
            assertThat(jobs().inNamespace("default").withName("mutated").get().getAdditionalProperties())
                    .extractingByKey("spec")
                    .isEqualTo(Map.of("minAvailable", 1, "queue", "patched"));
            JsonNode mutation = mutations.getLast().path("request");
            assertThat(mutation.path("operation").asText()).isEqualTo("CREATE");
            assertThat(mutation.path("object").path("spec").has("queue")).isFalse();
            assertThat(reviews.getLast()
                            .path("request")
                            .path("object")
                            .path("spec")
                            .path("queue")
                            .asText())
                    .isEqualTo("patched");

            // The validating webhook denies what the mutating one made of the object.
            refused(
                    () -> jobs().resource(labelled("denied-when-mutated", "deny"))
                            .create(),
                    DENIED);
            assertThat(jobs().inNamespace("default")
                            .withName("denied-when-mutated")
                            .get())
                    .isNull();

            // An object without the label is stored as sent.
            jobs().resource(job("default", "untouched", Map.of())).create();
            assertThat(jobs().inNamespace("default").withName("untouched").get().getAdditionalProperties())
                    .extractingByKey("spec")
                    .isEqualTo(Map.of("minAvailable", 1));

            // An update (PUT, and a patch) is patched too when the rules name UPDATE.
            GenericKubernetesResource update =
                    jobs().inNamespace("default").withName("untouched").get();
            update.getMetadata().setLabels(Map.of("mutate", "queue"));
            jobs().resource(update).update();
            assertThat(jobs().inNamespace("default").withName("untouched").get().getAdditionalProperties())
                    .extractingByKey("spec")
                    .isEqualTo(Map.of("minAvailable", 1, "queue", "patched"));
            jobs().resource(job("default", "merged", Map.of())).create();
            jobs().inNamespace("default")
                    .withName("merged")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"mutate\":\"queue\"}}}");
            assertThat(jobs().inNamespace("default").withName("merged").get().getAdditionalProperties())
                    .extractingByKey("spec")
                    .isEqualTo(Map.of("minAvailable", 1, "queue", "patched"));

            // A dry run answers the patched object and stores nothing.
            GenericKubernetesResource dry =
                    jobs().resource(labelled("dry-mutated", "queue")).dryRun().create();
            assertThat(dry.getAdditionalProperties())
                    .extractingByKey("spec")
                    .isEqualTo(Map.of("minAvailable", 1, "queue", "patched"));
            assertThat(jobs().inNamespace("default").withName("dry-mutated").get())
                    .isNull();
        } finally {
            unregister("validate-jobs");
            unregisterMutating("mutate-jobs");
        }
    }

    @Test
    void mutatingWebhooksAreCalledInTheOrderOfTheirConfigurationsNamesEachSeeingTheLastPatch() {
        registerMutating("b-second", List.of("CREATE"), "Fail");
        registerMutating("a-first", List.of("CREATE"), "Fail");
        try {
            int before = mutations.size();
            jobs().resource(labelled("counted", "count")).create();
            assertThat(mutations.subList(before, mutations.size()))
                    .extracting(r -> r.path("request")
                            .path("object")
                            .path("metadata")
                            .path("annotations")
                            .path("seen")
                            .asText())
                    .containsExactly("", "+");
            assertThat(jobs().inNamespace("default")
                            .withName("counted")
                            .get()
                            .getMetadata()
                            .getAnnotations())
                    .containsEntry("seen", "++");
        } finally {
            unregisterMutating("a-first");
            unregisterMutating("b-second");
        }
    }

    @Test
    void aPatchThatDoesNotApplyRefusesTheWriteWhateverTheFailurePolicyAndAnUntypedOneFailsTheCall() {
        jobs().resource(labelled("deleted", "delete")).create();
        registerMutating("mutate-badly", List.of("CREATE", "DELETE"), "Ignore");
        try (KubernetesClient once = once()) {
            assertThatThrownBy(() -> once.genericKubernetesResources(VCJOBS)
                            .resource(labelled("broken", "broken"))
                            .create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(500);
                        assertThat(e.getStatus().getMessage()).startsWith("Internal error occurred: ");
                    });
            assertThat(jobs().inNamespace("default").withName("broken").get()).isNull();

            // A patch without its type is a failure to call the webhook: ignored under Ignore...
            jobs().resource(labelled("untyped", "untyped")).create();
            assertThat(jobs().inNamespace("default").withName("untyped").get()).isNotNull();
            // ...and no webhook may patch a delete.
            assertThatThrownBy(() -> once.genericKubernetesResources(VCJOBS)
                            .inNamespace("default")
                            .withName("deleted")
                            .delete())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getStatus().getMessage())
                                    .isEqualTo(
                                            "Internal error occurred: admission webhook \"mutatejob.test\""
                                                    + " attempted to modify the object, which is not supported for this operation"));
            assertThat(jobs().inNamespace("default").withName("deleted").get()).isNotNull();

            registerMutating("mutate-badly", List.of("CREATE"), "Fail");
            assertThatThrownBy(() -> once.genericKubernetesResources(VCJOBS)
                            .resource(labelled("untyped-failing", "untyped"))
                            .create())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getStatus().getMessage())
                                    .isEqualTo("Internal error occurred: failed calling webhook \"mutatejob.test\":"
                                            + " received invalid webhook response: webhook returned response.patch"
                                            + " but not response.patchType"));
        } finally {
            unregisterMutating("mutate-badly");
            jobs().inNamespace("default").withName("deleted").delete();
        }
    }
}
