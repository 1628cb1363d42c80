package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The {@code pods/binding} subresource, which fabric8's store would keep as a loose object while
 * the pod stays unbound. This honours it as kube-apiserver does (pod storage's BindingREST): the
 * binding sets {@code spec.nodeName}, copies the binding's annotations onto the pod and marks the
 * pod's {@code PodScheduled} condition True; it is refused with 404 if the pod does not exist and
 * with 409 if the pod is being deleted or is already assigned to a node (any node: a real
 * apiserver never re-binds, so a scheduler retrying a bind must read the 409's message).
 *
 * <p>Both the subresource ({@code POST .../pods/{name}/binding}, what Volcano and kube-scheduler
 * use) and the legacy collection ({@code POST .../namespaces/{ns}/bindings}, what fabric8's
 * {@code client.bindings()} uses) are served.
 */
final class PodBinding {

    private static final String NAMESPACES = "/api/v1/namespaces/";

    /** Optimistic-lock retries against concurrent writers of the same pod (the kubelet, the bridge). */
    private static final int ATTEMPTS = 10;

    private final CrudStore store;
    private final Clock clock;

    PodBinding(CrudStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** True if this POST path is a binding, in either form. */
    static boolean matches(String path) {
        return Target.of(path) != null;
    }

    /**
     * Where a binding's path points: {@code /api/v1/namespaces/{namespace}/pods/{pod}/binding} or
     * {@code /api/v1/namespaces/{namespace}/bindings} (no pod: the body names it), each with a
     * slash at the end or none; read by hand, as every POST is asked whether it is one.
     */
    record Target(String namespace, String pod) {

        /** The binding {@code path} is, or null if it is none. */
        static Target of(String path) {
            if (!path.startsWith(NAMESPACES)) {
                return null;
            }
            int end = path.endsWith("/") ? path.length() - 1 : path.length();
            int slash = path.indexOf('/', NAMESPACES.length());
            if (slash <= NAMESPACES.length() || slash >= end) {
                return null;
            }
            String namespace = path.substring(NAMESPACES.length(), slash);
            String rest = path.substring(slash, end);
            if (rest.equals("/bindings")) {
                return new Target(namespace, null);
            }
            if (rest.length() > "/pods//binding".length() && rest.startsWith("/pods/") && rest.endsWith("/binding")) {
                String pod = rest.substring("/pods/".length(), rest.length() - "/binding".length());
                return pod.indexOf('/') < 0 ? new Target(namespace, pod) : null;
            }
            return null;
        }
    }

    MockResponse bind(String path, String body) {
        JsonNode binding;
        try {
            binding = CrudStore.parse(body);
        } catch (IllegalArgumentException e) {
            return ApiStatus.badRequest("the body of a Binding is not JSON: " + e.getMessage());
        }
        if (!binding.isObject()) {
            return ApiStatus.badRequest("the body of a Binding must be a JSON object");
        }
        String bodyName = binding.path("metadata").path("name").asText("");
        Target target = Target.of(path);
        if (target == null) {
            return ApiStatus.badRequest("not a binding path: " + path);
        }
        String namespace = target.namespace();
        String podName;
        if (target.pod() != null) {
            podName = target.pod();
            if (!bodyName.isEmpty() && !bodyName.equals(podName)) {
                return ApiStatus.badRequest("name in URL does not match name in Binding object");
            }
        } else {
            podName = bodyName;
            if (podName.isEmpty()) {
                return ApiStatus.invalid(
                        "Binding", "", "metadata.name", "Required value: name or generateName is required");
            }
        }
        String kind = binding.path("kind").asText("Binding");
        if (!kind.equals("Binding")) {
            return ApiStatus.badRequest("the body of a pods/binding request must be a Binding, not " + kind);
        }
        String targetKind = binding.path("target").path("kind").asText("");
        if (!targetKind.isEmpty() && !targetKind.equals("Node")) {
            return ApiStatus.invalid(
                    "Binding",
                    podName,
                    "target.kind",
                    "Unsupported value: \"" + targetKind + "\": supported values: \"Node\", \"\"");
        }
        String nodeName = binding.path("target").path("name").asText("");
        if (nodeName.isEmpty()) {
            return ApiStatus.invalid("Binding", podName, "target.name", "Required value");
        }
        return assign(namespace, podName, nodeName, binding);
    }

    private MockResponse assign(String namespace, String podName, String nodeName, JsonNode binding) {
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + podName;
        String uidPrecondition = binding.path("metadata").path("uid").asText("");
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            JsonNode pod = store.read(podPath).orElse(null);
            if (pod == null) {
                return ApiStatus.notFound("pods", podName);
            }
            JsonNode metadata = pod.path("metadata");
            if (!uidPrecondition.isEmpty()
                    && !uidPrecondition.equals(metadata.path("uid").asText())) {
                return ApiStatus.conflict(
                        "pods/binding",
                        podName,
                        "Precondition failed: UID in precondition: " + uidPrecondition + ", UID in object meta: "
                                + metadata.path("uid").asText());
            }
            if (!metadata.path("deletionTimestamp").asText("").isEmpty()) {
                return ApiStatus.conflict(
                        "pods/binding", podName, "pod " + podName + " is being deleted, cannot be assigned to a host");
            }
            String assigned = pod.path("spec").path("nodeName").asText("");
            if (!assigned.isEmpty()) {
                return ApiStatus.conflict(
                        "pods/binding",
                        podName,
                        "pod " + podName + " is already assigned to node \"" + assigned + "\"");
            }
            MockResponse written = store.put(
                    podPath, boundTo(pod, nodeName, binding.path("metadata").path("annotations")));
            if (written.code() == 409) {
                continue; // someone wrote the pod between our read and write: read again
            }
            if (written.code() == 404) {
                return ApiStatus.notFound("pods", podName);
            }
            if (written.code() >= 300) {
                return written;
            }
            return ApiStatus.success(201);
        }
        return ApiStatus.conflict("pods/binding", podName, "the pod kept changing while it was being bound; retry");
    }

    /**
     * The pod bound to {@code nodeName}: a new tree for the store, which shares every part of the
     * stored {@code pod} it does not change (the store's own tree, never changed) and copies the
     * objects on the way to each part it does (the metadata too, which the store's write changes).
     */
    private ObjectNode boundTo(JsonNode stored, String nodeName, JsonNode annotations) {
        ObjectNode pod = JsonNodeFactory.instance.objectNode();
        pod.setAll((ObjectNode) stored);
        copied(pod, "spec").put("nodeName", nodeName);
        ObjectNode metadata = copied(pod, "metadata");
        if (annotations.isObject() && !annotations.isEmpty()) {
            ObjectNode podAnnotations = copied(metadata, "annotations");
            annotations.properties().forEach(e -> podAnnotations.set(e.getKey(), e.getValue()));
        }
        ObjectNode status = copied(pod, "status");
        if (!status.has("phase")) {
            status.put("phase", "Pending");
        }
        ArrayNode conditions = status.withArrayProperty("conditions");
        if (conditions == stored.path("status").get("conditions")) {
            conditions = JsonNodeFactory.instance.arrayNode().addAll(conditions);
            status.set("conditions", conditions);
        }
        ObjectNode scheduled = null;
        for (int i = 0; i < conditions.size(); i++) {
            if ("PodScheduled".equals(conditions.get(i).path("type").asText())) {
                scheduled = copied(conditions, i);
            }
        }
        if (scheduled == null) {
            scheduled = conditions.addObject().put("type", "PodScheduled");
        }
        scheduled
                .put("status", "True")
                .put(
                        "lastTransitionTime",
                        Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString());
        scheduled.remove("reason");
        scheduled.remove("message");
        return pod;
    }

    /** {@code parent}'s object {@code field}, copied into it to be changed (made if it has none, as {@code withObjectProperty}). */
    private static ObjectNode copied(ObjectNode parent, String field) {
        if (parent.get(field) instanceof ObjectNode shared) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            copy.setAll(shared);
            parent.set(field, copy);
            return copy;
        }
        return parent.withObjectProperty(field);
    }

    /** The object at {@code index} of {@code array} (an array of the caller's), copied into it to be changed. */
    private static ObjectNode copied(ArrayNode array, int index) {
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.setAll((ObjectNode) array.get(index));
        array.set(index, copy);
        return copy;
    }
}
