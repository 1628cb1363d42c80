package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Optional;

/**
 * An update of a stored object (the whole object, or its {@code status} subresource) made on parsed
 * trees, checked and answered as fabric8's store and kube-apiserver answer it: 422 for a body that
 * is no object, 400 for one of another name or namespace, 409 when written from another version.
 * The stored version's tree is never changed: a status write's new version shares every part but
 * its status and metadata with it, a whole-object write is the written tree with the stored
 * metadata kept. No copy of the whole object, no JSON diff, no parse of the stored object's text.
 */
final class ObjectWrite {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** What a whole-object write keeps of the stored metadata, as fabric8's store keeps it. */
    private static final List<String> KEPT_METADATA =
            List.of("uid", "creationTimestamp", "resourceVersion", "generation");
    /** What an object is stored and found under (besides its plural): a write that changes none of it keeps its key. */
    private static final List<String> KEY_METADATA = List.of("name", "namespace", "labels");

    private ObjectWrite() {}

    /** fabric8's answer to a body that is not an object it could store (422 naming the missing field). */
    static Optional<MockResponse> invalid(JsonNode written) {
        String kind = written.path("kind").asText("");
        JsonNode metadata = written.get("metadata");
        String missing;
        if (!written.isObject()) {
            return Optional.of(refusal(new KubernetesCrudDispatcherException(
                    "No resource or invalid resource provided", HttpURLConnection.HTTP_BAD_REQUEST)));
        } else if (kind.isEmpty()) {
            return Optional.of(refusal(new KubernetesCrudDispatcherException("Invalid", 422, null, "kind")));
        } else if (written.path("apiVersion").asText("").isEmpty()) {
            missing = "apiVersion";
        } else if (metadata == null || !metadata.isObject()) {
            missing = "metadata";
        } else if (metadata.path("name").asText("").isEmpty()
                && metadata.path("generateName").asText("").isEmpty()) {
            missing = "name or generateName";
        } else {
            return Optional.empty();
        }
        return Optional.of(refusal(new KubernetesCrudDispatcherException(kind + " is invalid", 422, kind, missing)));
    }

    /** 409 when the body names a resourceVersion other than the stored one's; none named writes unconditionally. */
    static Optional<MockResponse> stale(AttributeSet query, JsonNode stored, JsonNode written) {
        String version = written.path("metadata").path("resourceVersion").asText("");
        if (version.isEmpty()
                || version.equals(
                        stored.path("metadata").path("resourceVersion").asText())) {
            return Optional.empty();
        }
        return Optional.of(ApiStatus.conflict(
                value(query, ObjectIndex.PLURAL),
                written.path("metadata").path("name").asText(),
                "the object has been modified; please apply your changes to the latest version and try again"));
    }

    /** 400 when the body names another object than the URL does. */
    static Optional<MockResponse> misplaced(AttributeSet query, JsonNode written) {
        JsonNode metadata = written.path("metadata");
        String name = metadata.path("name").asText("");
        String pathName = value(query, KubernetesAttributesExtractor.NAME);
        if (!name.isEmpty() && !name.equals(pathName)) {
            return Optional.of(ApiStatus.badRequest(
                    "the name of the object (" + name + ") does not match the name on the URL (" + pathName + ")"));
        }
        String namespace = metadata.path("namespace").asText("");
        String pathNamespace = value(query, KubernetesAttributesExtractor.NAMESPACE);
        if (pathNamespace != null && !namespace.isEmpty() && !namespace.equals(pathNamespace)) {
            return Optional.of(ApiStatus.badRequest("the namespace of the object (" + namespace
                    + ") does not match the namespace on the URL (" + pathNamespace + ")"));
        }
        return Optional.empty();
    }

    /** fabric8's store deletes an object whose write marks it deleted with no finalizers left. */
    static boolean deletes(JsonNode written) {
        JsonNode metadata = written.path("metadata");
        return metadata.hasNonNull("deletionTimestamp")
                && metadata.path("finalizers").isEmpty();
    }

    /** Whether a status write changes nothing: the same status (or none again). */
    static boolean sameStatus(JsonNode stored, JsonNode written) {
        JsonNode before = stored.get("status");
        JsonNode after = written.get("status");
        return before == null ? after == null : before.equals(after);
    }

    /** The next version of {@code stored} after a status write: the written status (none if it has none) at {@code resourceVersion}. */
    static ObjectNode withStatus(JsonNode stored, JsonNode written, long resourceVersion) {
        ObjectNode metadata = NODES.objectNode();
        metadata.setAll((ObjectNode) stored.get("metadata"));
        metadata.put("resourceVersion", String.valueOf(resourceVersion));
        ObjectNode next = NODES.objectNode();
        next.setAll((ObjectNode) stored);
        next.set("metadata", metadata);
        JsonNode status = written.get("status");
        if (status == null) {
            next.remove("status");
        } else {
            next.set("status", status);
        }
        return next;
    }

    /**
     * Makes {@code written} (a whole object, to be stored) keep what the store keeps of {@code
     * stored}: its namespace, uid, creation time, resource version and generation, and its status
     * where {@code keepStatus} (a custom resource with a status subresource); the generation counts
     * on when anything but the metadata and the status changed.
     */
    static void keep(JsonNode stored, ObjectNode written, boolean keepStatus) {
        if (keepStatus) {
            JsonNode status = stored.get("status");
            if (status == null) {
                written.remove("status");
            } else {
                written.set("status", status);
            }
        }
        ObjectNode metadata = (ObjectNode) written.get("metadata");
        JsonNode storedMetadata = stored.get("metadata");
        JsonNode namespace = storedMetadata.get("namespace");
        if (namespace == null || namespace.isNull()) {
            metadata.remove("namespace");
        } else {
            metadata.set("namespace", namespace);
        }
        for (String field : KEPT_METADATA) {
            JsonNode value = storedMetadata.get(field);
            if (value == null) {
                metadata.remove(field);
            } else {
                metadata.set(field, value);
            }
        }
        if (specChanged(stored, written)) {
            metadata.put("generation", storedMetadata.path("generation").asInt(0) + 1);
        }
    }

    /** Whether {@code stored} and {@code written} differ in anything but their metadata and status. */
    private static boolean specChanged(JsonNode stored, JsonNode written) {
        if (countBesidesMetadataAndStatus(stored) != countBesidesMetadataAndStatus(written)) {
            return true;
        }
        for (var field : written.properties()) {
            String name = field.getKey();
            if (!name.equals("metadata")
                    && !name.equals("status")
                    && !field.getValue().equals(stored.get(name))) {
                return true;
            }
        }
        return false;
    }

    private static int countBesidesMetadataAndStatus(JsonNode object) {
        return object.size() - (object.has("metadata") ? 1 : 0) - (object.has("status") ? 1 : 0);
    }

    /** Whether the object would be stored under the same key: the same apiVersion, kind, name, namespace and labels. */
    static boolean sameKey(JsonNode stored, JsonNode written) {
        if (!stored.path("apiVersion").equals(written.path("apiVersion"))
                || !stored.path("kind").equals(written.path("kind"))) {
            return false;
        }
        for (String field : KEY_METADATA) {
            if (!stored.path("metadata")
                    .path(field)
                    .equals(written.path("metadata").path(field))) {
                return false;
            }
        }
        return true;
    }

    private static MockResponse refusal(KubernetesCrudDispatcherException e) {
        return new MockResponse().setResponseCode(e.getCode()).setBody(e.toStatusBody());
    }

    private static String value(AttributeSet query, String name) {
        var attribute = query.getAttribute(name);
        return attribute == null || attribute.getValues().isEmpty()
                ? null
                : String.valueOf(attribute.getValues().get(0));
    }
}
