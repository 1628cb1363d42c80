package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.zjsonpatch.CompatibilityFlags;
import io.fabric8.zjsonpatch.JsonPatch;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Admission webhooks, as a kube-apiserver calls them: every webhook of every stored
 * {@code admissionregistration.k8s.io/v1} configuration of its {@link Kind} that selects a create,
 * update or delete is sent an AdmissionReview v1 over HTTPS (its {@code clientConfig.url}, trusting
 * only its {@code caBundle}, through a client kept per bundle: {@link WebhookClients}), within its
 * {@code timeoutSeconds}; a denial refuses the write with kubectl's wording, a webhook that cannot
 * be called refuses it unless its {@code failurePolicy} is {@code Ignore}.
 *
 * <p>Mutating webhooks are called one after the other, their configurations in the order of their
 * names as the apiserver sorts them, each sent the object as the ones before it patched it; the
 * JSONPatch a webhook answers is applied at once (a patch that does not apply, or any patch of a
 * DELETE, refuses the write whatever the failure policy, as the apiserver's internal error does).
 * The apiserver calls them before the validating webhooks, which review the object as patched
 * (the caller's order). {@code reinvocationPolicy: IfNeeded} is not honoured: each is called once.
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
 * Webhook configurations themselves are never reviewed, as the apiserver exempts them.
 */
final class AdmissionWebhooks {

    private static final String REGISTRATION_GROUP = "admissionregistration.k8s.io";
    /**
     * How the apiserver's JSON patch library applies a webhook's patch: an {@code add} without a
     * value adds null, a {@code remove} of a missing member fails.
     */
    private static final EnumSet<CompatibilityFlags> AS_THE_APISERVER =
            EnumSet.of(CompatibilityFlags.MISSING_VALUES_AS_NULLS, CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT);

    /** The two kinds of configuration, and the resource each is stored as. */
    enum Kind {
        VALIDATING("validatingwebhookconfigurations"),
        MUTATING("mutatingwebhookconfigurations");

        private final String plural;

        Kind(String plural) {
            this.plural = plural;
        }

        String path() {
            return "/apis/" + REGISTRATION_GROUP + "/v1/" + plural;
        }
    }

    private final CrudStore store;
    private final Kind kind;
    private final WebhookClients clients = new WebhookClients();
    /**
     * The stored configurations by name, guarded by this: validating ones in the store's order (the
     * last written last; the apiserver calls them at once, any refusal ends the write), mutating ones
     * by name, the order the apiserver calls them in.
     */
    private final Map<String, JsonNode> byName;
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

        Write with(JsonNode patched) {
            return new Write(resource, operation, patched, old, dryRun);
        }
    }

    /** What admission made of a write: the object to store, as the mutating webhooks left it, or the refusal. */
    record Admitted(JsonNode object, Optional<MockResponse> refusal) {

        static Admitted as(JsonNode object) {
            return new Admitted(object, Optional.empty());
        }

        static Admitted refused(MockResponse refusal) {
            return new Admitted(null, Optional.of(refusal));
        }
    }

    /** A webhook's answer: its response when it allowed the write, its refusal, or neither (a failure ignored). */
    private record Answer(JsonNode response, MockResponse refusal) {}

    AdmissionWebhooks(CrudStore store, Kind kind) {
        this.store = store;
        this.kind = kind;
        this.byName = kind == Kind.MUTATING ? new TreeMap<>() : new LinkedHashMap<>();
        // For the store's life: it lives as long as this.
        store.watch(kind.path(), this::changed);
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

    /** Why the validating webhooks refuse {@code write}, or empty if it may proceed. */
    Optional<MockResponse> review(Write write) {
        List<JsonNode> stored = configurations;
        if (stored.isEmpty() || exempt(write.resource())) {
            return Optional.empty();
        }
        retainClients(stored);
        for (JsonNode configuration : stored) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                if (selects(webhook, write)) {
                    Answer answer = call(webhook, write);
                    if (answer.refusal() != null) {
                        return Optional.of(answer.refusal());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** {@code write}'s object as the mutating webhooks patch it, or why one of them refuses the write. */
    Admitted mutate(Write write) {
        List<JsonNode> stored = configurations;
        if (stored.isEmpty() || exempt(write.resource())) {
            return Admitted.as(write.object());
        }
        retainClients(stored);
        Write current = write;
        for (JsonNode configuration : stored) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                if (!selects(webhook, current)) {
                    continue;
                }
                Answer answer = call(webhook, current);
                if (answer.refusal() != null) {
                    return Admitted.refused(answer.refusal());
                }
                if (answer.response() == null) {
                    continue;
                }
                String name = webhook.path("name").asText();
                JsonNode patch;
                try {
                    patch = patch(answer.response());
                } catch (IllegalArgumentException e) {
                    return Admitted.refused(internalError(e.getMessage()));
                }
                if (patch.isEmpty()) {
                    continue;
                }
                if (current.object() == null) {
                    return Admitted.refused(internalError("admission webhook \"" + name
                            + "\" attempted to modify the object, which is not supported for this operation"));
                }
                try {
                    current = current.with(JsonPatch.apply(patch, current.object(), AS_THE_APISERVER));
                } catch (RuntimeException e) {
                    return Admitted.refused(internalError(String.valueOf(e.getMessage())));
                }
            }
        }
        return Admitted.as(current.object());
    }

    /** The JSONPatch of an allowing response (base64, as the apiserver reads it), empty when there is none. */
    private static JsonNode patch(JsonNode response) {
        String encoded = response.path("patch").asText("");
        if (encoded.isEmpty()) {
            return Serialization.jsonMapper().createArrayNode();
        }
        JsonNode patch;
        try {
            patch = CrudStore.parse(new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the webhook's patch is not a JSON patch: " + e.getMessage(), e);
        }
        if (!patch.isArray()) {
            throw new IllegalArgumentException("the webhook's patch is not a JSON patch: not an array");
        }
        return patch;
    }

    /** As the apiserver: no webhook sees a write of a webhook configuration. */
    private static boolean exempt(ApiResource resource) {
        return resource.group().equals(REGISTRATION_GROUP)
                && (resource.plural().equals(Kind.VALIDATING.plural)
                        || resource.plural().equals(Kind.MUTATING.plural));
    }

    /** Closes the clients of webhooks no longer stored. */
    private void retainClients(List<JsonNode> stored) {
        Set<String> inUse = new HashSet<>();
        for (JsonNode configuration : stored) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                inUse.add(WebhookClients.key(webhook));
            }
        }
        clients.retain(inUse);
    }

    /**
     * Whether the rules of any stored webhook name {@code operation} on {@code resource}: a write no
     * rule names (a pod's, on the cluster's busiest path) needs neither its body parsed nor its
     * stored object read.
     */
    boolean reviews(ApiResource resource, String operation) {
        if (exempt(resource)) {
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

    private Answer call(JsonNode webhook, Write write) {
        String name = webhook.path("name").asText();
        boolean ignore = webhook.path("failurePolicy").asText("Fail").equals("Ignore");
        if (write.dryRun()
                && !webhook.path("sideEffects").asText("Unknown").equals("None")
                && !webhook.path("sideEffects").asText("Unknown").equals("NoneOnDryRun")) {
            return new Answer(
                    null,
                    ApiStatus.failure(
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
            return failed(ignore, name, String.valueOf(e.getMessage()));
        }
        JsonNode response = answer.path("response");
        if (!response.path("uid").asText().equals(uid)) {
            return failed(ignore, name, "the response's uid is not the request's");
        }
        if (response.path("allowed").asBoolean(false)) {
            if (!response.path("patch").asText("").isEmpty()) {
                if (kind != Kind.MUTATING) {
                    return failed(
                            ignore,
                            name,
                            "received invalid webhook response: validating webhooks may not return patches");
                }
                if (!response.path("patchType").asText().equals("JSONPatch")) {
                    return failed(
                            ignore,
                            name,
                            "received invalid webhook response: "
                                    + (response.hasNonNull("patchType")
                                            ? "webhook returned invalid response.patchType of \""
                                                    + response.path("patchType").asText() + "\""
                                            : "webhook returned response.patch but not response.patchType"));
                }
            }
            return new Answer(response, null);
        }
        JsonNode status = response.path("status");
        int code = status.path("code").asInt(400);
        String message = "admission webhook \"" + name + "\" denied the request"
                + (status.path("message").asText().isEmpty()
                        ? ""
                        : ": " + status.path("message").asText());
        String reason = status.path("reason").asText(code == 422 ? "Invalid" : "BadRequest");
        return new Answer(
                null, ApiStatus.failure(code < 400 || code > 599 ? 400 : code, reason, message, null, null, null));
    }

    private static Answer failed(boolean ignore, String name, String why) {
        return new Answer(null, ignore ? null : failedCalling(name, why));
    }

    private static MockResponse internalError(String why) {
        return ApiStatus.failure(500, "InternalError", "Internal error occurred: " + why, null, null, null);
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
