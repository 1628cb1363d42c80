package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Validating admission webhooks, as a kube-apiserver calls them: every webhook of every stored
 * {@code admissionregistration.k8s.io/v1} ValidatingWebhookConfiguration that selects a create,
 * update or delete is sent an AdmissionReview v1 over HTTPS (its {@code clientConfig.url}, trusting
 * only its {@code caBundle}, through a client kept per bundle: {@link WebhookClients}), within its
 * {@code timeoutSeconds}; a denial refuses the write with kubectl's wording, a webhook that cannot
 * be called refuses it unless its {@code failurePolicy} is {@code Ignore}.
 *
 * <p>A webhook selects a write when one of its {@code rules} names the operation, the group, the
 * version and the resource (or {@code *}, {@code *}{@code /*}) within its {@code scope}; when its
 * {@code namespaceSelector} selects the object's namespace (by the Namespace's labels and
 * {@code kubernetes.io/metadata.name}; a cluster-scoped object other than a Namespace is always
 * selected); and when its {@code objectSelector} selects the object or the old object. A dry run
 * is sent only to webhooks whose {@code sideEffects} are None or NoneOnDryRun, and refused by the
 * others, as the apiserver does. The emulator serves one version of each resource, so
 * {@code matchPolicy} Equivalent and Exact select alike. A {@code clientConfig.service} needs a
 * cluster network the emulator does not have: such a webhook counts as failing to be called.
 */
final class AdmissionWebhooks {

    static final String CONFIGURATIONS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";

    private final CrudStore store;
    private final WebhookClients clients = new WebhookClients();
    /** The stored configurations by name, in the store's order (the last written last); guarded by this. */
    private final Map<String, JsonNode> byName = new LinkedHashMap<>();
    /**
     * What {@link #byName} holds, replaced whole at each change of a configuration: told under the
     * store's write lock, so every write after the change is reviewed by it, as if each write read
     * the configurations from the store, without the list and its parse at every write.
     */
    private volatile List<JsonNode> configurations = List.of();

    /**
     * A write to review.
     *
     * @param object the object as it would be stored; null on DELETE
     * @param old    the stored object on UPDATE and DELETE; null on CREATE
     * @param dryRun whether the request asked for {@code dryRun=All}
     */
    record Write(ApiResource resource, String operation, JsonNode object, JsonNode old, boolean dryRun) {

        JsonNode subject() {
            return object != null ? object : old;
        }
    }

    AdmissionWebhooks(CrudStore store) {
        this.store = store;
        // For the store's life: it lives as long as this.
        store.watch(CONFIGURATIONS, this::changed);
    }

    private synchronized void changed(String type, String json) {
        JsonNode configuration = CrudStore.parse(json);
        String name = configuration.path("metadata").path("name").asText();
        byName.remove(name);
        if (!type.equals("DELETED")) {
            byName.put(name, configuration);
        }
        configurations = List.copyOf(byName.values());
    }

    /** Why {@code write} is refused, or empty if it may proceed. */
    Optional<MockResponse> review(Write write) {
        if (write.resource().plural().equals("validatingwebhookconfigurations")) {
            return Optional.empty(); // as the apiserver: webhooks never see their own configurations
        }
        List<JsonNode> stored = configurations;
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Set<String> inUse = new HashSet<>();
        Optional<MockResponse> refused = Optional.empty();
        for (JsonNode configuration : stored) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                inUse.add(WebhookClients.key(webhook));
                if (refused.isEmpty() && selects(webhook, write)) {
                    refused = call(webhook, write);
                }
            }
        }
        clients.retain(inUse);
        return refused;
    }

    /**
     * Whether the rules of any stored webhook name {@code operation} on {@code resource}: a write no
     * rule names (a pod's, on the cluster's busiest path) needs neither its body parsed nor its
     * stored object read.
     */
    boolean reviews(ApiResource resource, String operation) {
        if (resource.plural().equals("validatingwebhookconfigurations")) {
            return false;
        }
        for (JsonNode configuration : configurations) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                if (matches(webhook, resource, operation)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean selects(JsonNode webhook, Write write) {
        return matches(webhook, write.resource(), write.operation())
                && namespaceSelected(webhook.path("namespaceSelector"), write)
                && objectSelected(webhook.path("objectSelector"), write);
    }

    static boolean matches(JsonNode webhook, ApiResource resource, String operation) {
        for (JsonNode rule : webhook.path("rules")) {
            if (has(rule.path("operations"), operation)
                    && has(rule.path("apiGroups"), resource.group())
                    && has(rule.path("apiVersions"), resource.version())
                    && resourceMatches(rule.path("resources"), resource.plural())
                    && scopeMatches(rule.path("scope").asText("*"), resource)) {
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

    /** {@code *} and {@code *}{@code /*} name every resource; {@code x/y} names a subresource, never reviewed here. */
    private static boolean resourceMatches(JsonNode resources, String plural) {
        for (JsonNode r : resources) {
            String name = r.asText();
            if (name.equals("*") || name.equals("*/*") || name.equals(plural)) {
                return true;
            }
        }
        return false;
    }

    private static boolean scopeMatches(String scope, ApiResource resource) {
        return switch (scope) {
            case "Cluster" -> !resource.namespaced();
            case "Namespaced" -> resource.namespaced();
            default -> true;
        };
    }

    private boolean namespaceSelected(JsonNode selector, Write write) {
        if (selector.isMissingNode() || selector.isNull() || selector.isEmpty()) {
            return true;
        }
        ObjectNode namespace;
        if (write.resource().plural().equals("namespaces")
                && write.resource().group().isEmpty()) {
            namespace = write.subject().deepCopy();
        } else if (!write.resource().namespaced()) {
            return true; // the apiserver never skips a webhook for a cluster-scoped object by its namespace
        } else {
            String name = write.subject().path("metadata").path("namespace").asText();
            namespace = store.get("/api/v1/namespaces/" + name).orElseGet(() -> {
                ObjectNode unknown = Serialization.jsonMapper().createObjectNode();
                unknown.putObject("metadata").put("name", name);
                return unknown;
            });
        }
        JsonNode metadata = namespace.path("metadata");
        if (metadata.isObject()) {
            // The apiserver labels every namespace with its name; selectors such as Volcano's rely on it.
            JsonNode labels = metadata.path("labels");
            ObjectNode withName = labels.isObject() ? (ObjectNode) labels : ((ObjectNode) metadata).putObject("labels");
            withName.put("kubernetes.io/metadata.name", metadata.path("name").asText());
        }
        return Selectors.ofLabelSelector(selector).matches(namespace);
    }

    private static boolean objectSelected(JsonNode selector, Write write) {
        if (selector.isMissingNode() || selector.isNull() || selector.isEmpty()) {
            return true;
        }
        Selectors selectors = Selectors.ofLabelSelector(selector);
        return (write.object() != null && selectors.matches(write.object()))
                || (write.old() != null && selectors.matches(write.old()));
    }

    private Optional<MockResponse> call(JsonNode webhook, Write write) {
        String name = webhook.path("name").asText();
        boolean ignore = webhook.path("failurePolicy").asText("Fail").equals("Ignore");
        if (write.dryRun()
                && !webhook.path("sideEffects").asText("Unknown").equals("None")
                && !webhook.path("sideEffects").asText("Unknown").equals("NoneOnDryRun")) {
            return Optional.of(ApiStatus.failure(
                    400,
                    "BadRequest",
                    "admission webhook \"" + name + "\" does not support dry run",
                    null,
                    null,
                    null));
        }
        JsonNode answer;
        String uid = UUID.randomUUID().toString();
        try {
            answer = post(webhook, review(uid, write));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return ignore ? Optional.empty() : Optional.of(failedCalling(name, String.valueOf(e.getMessage())));
        }
        JsonNode response = answer.path("response");
        if (!response.path("uid").asText().equals(uid)) {
            return ignore
                    ? Optional.empty()
                    : Optional.of(failedCalling(name, "the response's uid is not the request's"));
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

    private static MockResponse failedCalling(String name, String why) {
        return ApiStatus.failure(
                500,
                "InternalError",
                "Internal error occurred: failed calling webhook \"" + name + "\": " + why,
                null,
                null,
                null);
    }

    private static ObjectNode review(String uid, Write write) {
        ApiResource resource = write.resource();
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
        JsonNode metadata = write.subject().path("metadata");
        request.put("name", metadata.path("name").asText());
        if (resource.namespaced()) {
            request.put("namespace", metadata.path("namespace").asText());
        }
        request.put("operation", write.operation());
        // The kubeconfig's one token is the cluster's administrator.
        request.putObject("userInfo")
                .put("username", "kubernetes-admin")
                .putArray("groups")
                .add("system:masters");
        request.set("object", write.object());
        request.set("oldObject", write.old());
        request.put("dryRun", write.dryRun());
        String options = switch (write.operation()) {
            case "CREATE" -> "CreateOptions";
            case "DELETE" -> "DeleteOptions";
            default -> "UpdateOptions";
        };
        request.putObject("options").put("apiVersion", "meta.k8s.io/v1").put("kind", options);
        return review;
    }

    private JsonNode post(JsonNode webhook, ObjectNode review) throws Exception {
        String url = webhook.path("clientConfig").path("url").asText();
        if (url.isEmpty()) {
            throw new IllegalArgumentException("the emulator calls webhooks by clientConfig.url only");
        }
        HttpResponse<String> response = clients.of(webhook)
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(WebhookClients.timeout(webhook))
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
