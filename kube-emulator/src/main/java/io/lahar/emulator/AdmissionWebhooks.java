package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Validating admission webhooks, as a kube-apiserver calls them: every webhook of every stored
 * {@code admissionregistration.k8s.io/v1} ValidatingWebhookConfiguration whose rules match a
 * create or update is sent an AdmissionReview v1 over HTTPS (its {@code clientConfig.url}, trusting
 * only its {@code caBundle}), within its {@code timeoutSeconds}; a denial refuses the write with
 * kubectl's wording, a webhook that cannot be called refuses it unless its {@code failurePolicy} is
 * {@code Ignore}. A {@code clientConfig.service} needs a cluster network the emulator does not
 * have: such a webhook counts as failing to be called.
 */
final class AdmissionWebhooks {

    static final String CONFIGURATIONS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    private static final int DEFAULT_TIMEOUT_SECONDS = 10;
    private static final int MAX_TIMEOUT_SECONDS = 30;

    private final CrudStore store;

    AdmissionWebhooks(CrudStore store) {
        this.store = store;
    }

    /** Why the write of {@code object} (over {@code old} on an UPDATE) is refused, or empty if it may proceed. */
    Optional<MockResponse> review(ApiResource resource, String operation, JsonNode object, JsonNode old) {
        if (resource.plural().equals("validatingwebhookconfigurations")) {
            return Optional.empty(); // as the apiserver: webhooks never see their own configurations
        }
        Optional<JsonNode> configurations = list();
        if (configurations.isEmpty()) {
            return Optional.empty();
        }
        for (JsonNode configuration : configurations.get().path("items")) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                if (!matches(webhook, resource, operation)) {
                    continue;
                }
                Optional<MockResponse> refused = call(webhook, resource, operation, object, old);
                if (refused.isPresent()) {
                    return refused;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether any configuration is stored: most writes then need neither parsing nor a look-up. */
    boolean any() {
        return list().map(l -> !l.path("items").isEmpty()).orElse(false);
    }

    private Optional<JsonNode> list() {
        MockResponse response = store.dispatch(io.fabric8.mockwebserver.dsl.HttpMethod.GET, CONFIGURATIONS, null, null);
        return response.code() == 200 ? Optional.of(CrudStore.parse(CrudStore.bodyOf(response))) : Optional.empty();
    }

    static boolean matches(JsonNode webhook, ApiResource resource, String operation) {
        for (JsonNode rule : webhook.path("rules")) {
            if (has(rule.path("operations"), operation)
                    && has(rule.path("apiGroups"), resource.group())
                    && has(rule.path("apiVersions"), resource.version())
                    && has(rule.path("resources"), resource.plural())) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals("*") || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private Optional<MockResponse> call(
            JsonNode webhook, ApiResource resource, String operation, JsonNode object, JsonNode old) {
        String name = webhook.path("name").asText();
        boolean ignore = webhook.path("failurePolicy").asText("Fail").equals("Ignore");
        JsonNode answer;
        String uid = UUID.randomUUID().toString();
        try {
            answer = post(webhook, review(uid, resource, operation, object, old));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (ignore) {
                return Optional.empty();
            }
            return Optional.of(ApiStatus.failure(
                    500,
                    "InternalError",
                    "Internal error occurred: failed calling webhook \"" + name + "\": " + e.getMessage(),
                    null,
                    null,
                    null));
        }
        JsonNode response = answer.path("response");
        if (!response.path("uid").asText().equals(uid)) {
            return ignore
                    ? Optional.empty()
                    : Optional.of(ApiStatus.failure(
                            500,
                            "InternalError",
                            "Internal error occurred: failed calling webhook \"" + name
                                    + "\": the response's uid is not the request's",
                            null,
                            null,
                            null));
        }
        if (response.path("allowed").asBoolean(false)) {
            return Optional.empty();
        }
        JsonNode status = response.path("status");
        int code = status.path("code").asInt(400);
        String message = "admission webhook \"" + name + "\" denied the request"
                + (status.path("message").asText().isEmpty()
                        ? ""
                        : ": " + status.path("message").asText());
        String reason = status.path("reason").asText(code == 422 ? "Invalid" : "BadRequest");
        return Optional.of(ApiStatus.failure(code < 400 || code > 599 ? 400 : code, reason, message, null, null, null));
    }

    private static ObjectNode review(
            String uid, ApiResource resource, String operation, JsonNode object, JsonNode old) {
        ObjectNode review = Serialization.jsonMapper().createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", uid);
        request.putObject("kind")
                .put("group", resource.group())
                .put("version", resource.version())
                .put("kind", resource.kind());
        request.putObject("resource")
                .put("group", resource.group())
                .put("version", resource.version())
                .put("resource", resource.plural());
        JsonNode metadata = object.path("metadata");
        request.put("name", metadata.path("name").asText());
        if (resource.namespaced()) {
            request.put("namespace", metadata.path("namespace").asText());
        }
        request.put("operation", operation);
        // The kubeconfig's one token is the cluster's administrator.
        request.putObject("userInfo")
                .put("username", "kubernetes-admin")
                .putArray("groups")
                .add("system:masters");
        request.set("object", object);
        request.set("oldObject", old);
        request.put("dryRun", false);
        return review;
    }

    private static JsonNode post(JsonNode webhook, ObjectNode review) throws Exception {
        JsonNode clientConfig = webhook.path("clientConfig");
        String url = clientConfig.path("url").asText();
        if (url.isEmpty()) {
            throw new IllegalArgumentException("the emulator calls webhooks by clientConfig.url only");
        }
        int timeout = Math.min(
                MAX_TIMEOUT_SECONDS, Math.max(1, webhook.path("timeoutSeconds").asInt(DEFAULT_TIMEOUT_SECONDS)));
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeout));
        if (!clientConfig.path("caBundle").asText().isEmpty()) {
            builder.sslContext(trusting(clientConfig.path("caBundle").asText()));
        }
        try (HttpClient http = builder.build()) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(timeout))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(review.toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                throw new IllegalStateException("Post \"" + url + "\": status " + response.statusCode());
            }
            return CrudStore.parse(response.body());
        }
    }

    /** TLS that trusts the certificates of a base64 PEM bundle, and nothing else (as the apiserver does). */
    private static SSLContext trusting(String caBundle) throws Exception {
        byte[] pem = Base64.getDecoder().decode(caBundle.trim());
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        int i = 0;
        for (var certificate :
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
            trust.setCertificateEntry("ca-" + i++, (X509Certificate) certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
