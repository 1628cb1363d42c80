package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    static final Pattern SUBRESOURCE = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding/?$");
    static final Pattern LEGACY = Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings/?$");

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
        return SUBRESOURCE.matcher(path).matches() || LEGACY.matcher(path).matches();
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
        Matcher sub = SUBRESOURCE.matcher(path);
        String namespace;
        String podName;
        if (sub.matches()) {
            namespace = sub.group(1);
            podName = sub.group(2);
            if (!bodyName.isEmpty() && !bodyName.equals(podName)) {
                return ApiStatus.badRequest("name in URL does not match name in Binding object");
            }
        } else {
            Matcher legacy = LEGACY.matcher(path);
            if (!legacy.matches()) {
                return ApiStatus.badRequest("not a binding path: " + path);
            }
            namespace = legacy.group(1);
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
            ObjectNode pod = store.get(podPath).orElse(null);
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
            bindTo(pod, nodeName, binding.path("metadata").path("annotations"));
            MockResponse written = store.put(podPath, pod);
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

    private void bindTo(ObjectNode pod, String nodeName, JsonNode annotations) {
        pod.withObjectProperty("spec").put("nodeName", nodeName);
        if (annotations.isObject() && !annotations.isEmpty()) {
            ObjectNode podAnnotations = pod.withObjectProperty("metadata").withObjectProperty("annotations");
            annotations.fields().forEachRemaining(e -> podAnnotations.set(e.getKey(), e.getValue()));
        }
        ObjectNode status = pod.withObjectProperty("status");
        if (!status.has("phase")) {
            status.put("phase", "Pending");
        }
        ArrayNode conditions = status.withArrayProperty("conditions");
        ObjectNode scheduled = null;
        for (JsonNode c : conditions) {
            if ("PodScheduled".equals(c.path("type").asText())) {
                scheduled = (ObjectNode) c;
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
    }
}
