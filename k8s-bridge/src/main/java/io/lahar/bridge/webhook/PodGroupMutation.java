package io.lahar.bridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.mapping.Workloads;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Volcano's PodGroup mutating webhook (mutate_podgroup.go) as a pure function: a PodGroup created in
 * the queue {@code default} is patched into the queue its Namespace's {@code
 * scheduling.volcano.sh/queue-name} annotation names. Nothing else is patched: another queue, a
 * namespace without the annotation, or one that cannot be read (Volcano logs the failed GET and
 * patches nothing) leave the group as it is.
 *
 * <p>The API server defaults {@code spec.queue} to {@code default} from the PodGroup CRD before any
 * mutating webhook sees the object; the kube-emulator applies no CRD defaults, so a group whose spec
 * names no queue is read as that default here. The bridge's own mirrors of Lahar Jobs' groups are
 * left alone: the engine places a Lahar Job in its own queue, and its group's CR shows that queue.
 */
public final class PodGroupMutation {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP = VolcanoKinds.POD_GROUPS.getGroup();
    private static final String VERSION = VolcanoKinds.POD_GROUPS.getVersion();
    private static final String PLURAL = VolcanoKinds.POD_GROUPS.getPlural();
    /** The resource Volcano's webhook decodes, as Go prints a GroupVersionResource in its refusal. */
    private static final String PODGROUPS = GROUP + "/" + VERSION + ", Resource=" + PLURAL;

    private PodGroupMutation() {}

    /**
     * The answer to {@code review}; {@code namespaceAnnotations} gives a namespace's annotations, or
     * empty when it cannot be read.
     */
    public static ObjectNode review(
            JsonNode review, Function<String, Optional<Map<String, String>>> namespaceAnnotations) {
        JsonNode request = review.path("request");
        String uid = request.path("uid").asText();
        JsonNode resource = request.path("resource");
        if (!resource.path("group").asText().equals(GROUP)
                || !resource.path("version").asText().equals(VERSION)
                || !resource.path("resource").asText().equals(PLURAL)) {
            return denied(uid, "expect resource to be " + PODGROUPS);
        }
        JsonNode object = request.path("object");
        if (!object.isObject() || !object.path("metadata").isObject()) {
            return denied(uid, "the review has no PodGroup with metadata");
        }
        JsonNode queue = object.path("spec").path("queue");
        if (!queue.isMissingNode() && !queue.isNull() && !queue.isTextual()) {
            return denied(uid, "spec.queue: expected a string, got " + queue);
        }
        String operation = request.path("operation").asText();
        if (!operation.equals("CREATE")) {
            return denied(uid, "invalid operation `" + operation + "`, expect operation to be `CREATE`");
        }
        if (laharsOwn(object) || !inDefaultQueue(object)) {
            return allowed(uid, null);
        }
        String namespace = object.path("metadata")
                .path("namespace")
                .asText(request.path("namespace").asText());
        Optional<Map<String, String>> annotations = namespaceAnnotations.apply(namespace);
        if (annotations.isEmpty() || !annotations.get().containsKey(Workloads.QUEUE_NAME)) {
            return allowed(uid, null);
        }
        String value = annotations.get().get(Workloads.QUEUE_NAME);
        if (value == null || value.isEmpty()) {
            // Volcano's patch of an empty name has no value (Go's omitempty): the API server adds a
            // null queue, prunes it and defaults it back to default. No patch ends the same.
            return allowed(uid, null);
        }
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", "/spec/queue").put("value", value);
        return allowed(uid, patch);
    }

    /** Whether the group is in the queue {@code default}: named so, or, with a spec, naming none (the CRD's default). */
    private static boolean inDefaultQueue(JsonNode object) {
        JsonNode spec = object.path("spec");
        if (!spec.isObject()) {
            return false;
        }
        JsonNode queue = spec.path("queue");
        return queue.isMissingNode() || queue.isNull() || queue.asText().equals(Workloads.DEFAULT_QUEUE);
    }

    private static boolean laharsOwn(JsonNode object) {
        return BridgeLabels.MANAGER.equals(object.path("metadata")
                .path("labels")
                .path(BridgeLabels.MANAGED_BY)
                .asText(null));
    }

    private static ObjectNode allowed(String uid, ArrayNode patch) {
        ObjectNode review = envelope();
        ObjectNode response = review.putObject("response").put("uid", uid).put("allowed", true);
        if (patch != null) {
            response.put(
                            "patch",
                            Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)))
                    .put("patchType", "JSONPatch");
        }
        return review;
    }

    private static ObjectNode denied(String uid, String message) {
        ObjectNode review = envelope();
        review.putObject("response")
                .put("uid", uid)
                .put("allowed", false)
                .putObject("status")
                .put("status", "Failure")
                .put("code", AdmissionReviews.DENIED)
                .put("reason", "BadRequest")
                .put("message", message);
        return review;
    }

    private static ObjectNode envelope() {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        return review;
    }
}
