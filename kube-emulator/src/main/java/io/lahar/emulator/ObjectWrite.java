package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.utils.ApiVersionUtil;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.Key;
import io.fabric8.mockwebserver.crud.Value;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.HttpURLConnection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    /** How fabric8 keys a label: {@code labels:<key>}. */
    private static final String LABEL_PREFIX = "labels:";
    /** What a whole-object write keeps of the stored metadata, as fabric8's store keeps it. */
    private static final List<String> KEPT_METADATA =
            List.of("uid", "creationTimestamp", "resourceVersion", "generation");
    /** What an object is stored and found under (besides its plural): a write that changes none of it keeps its key. */
    private static final List<String> KEY_METADATA = List.of("name", "namespace", "labels");

    /**
     * JSON equality: a number is equal to the same number however it was read (a tree built from a
     * model holds a {@code long} where one parsed from text holds an {@code int}).
     */
    private static final Comparator<JsonNode> SAME_JSON = (a, b) ->
            a.equals(b) || (a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0) ? 0 : 1;

    private ObjectWrite() {}

    /** Whether {@code a} and {@code b} (either may be null) are the same JSON. */
    static boolean same(JsonNode a, JsonNode b) {
        return a == b || (a != null && b != null && a.equals(SAME_JSON, b));
    }

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
    static Optional<MockResponse> stale(StoreQuery query, JsonNode stored, JsonNode written) {
        String version = written.path("metadata").path("resourceVersion").asText("");
        if (version.isEmpty()
                || version.equals(
                        stored.path("metadata").path("resourceVersion").asText())) {
            return Optional.empty();
        }
        return Optional.of(ApiStatus.conflict(
                query.value(KubernetesAttributesExtractor.PLURAL),
                written.path("metadata").path("name").asText(),
                "the object has been modified; please apply your changes to the latest version and try again"));
    }

    /** 400 when the body names another object than the URL does. */
    static Optional<MockResponse> misplaced(StoreQuery query, JsonNode written) {
        JsonNode metadata = written.path("metadata");
        String name = metadata.path("name").asText("");
        String pathName = query.value(KubernetesAttributesExtractor.NAME);
        if (!name.isEmpty() && !name.equals(pathName)) {
            return Optional.of(ApiStatus.badRequest(
                    "the name of the object (" + name + ") does not match the name on the URL (" + pathName + ")"));
        }
        String namespace = metadata.path("namespace").asText("");
        String pathNamespace = query.value(KubernetesAttributesExtractor.NAMESPACE);
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
        return same(stored.get("status"), written.get("status"));
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
            if (!name.equals("metadata") && !name.equals("status") && !same(field.getValue(), stored.get(name))) {
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
        if (!same(stored.path("apiVersion"), written.path("apiVersion"))
                || !same(stored.path("kind"), written.path("kind"))) {
            return false;
        }
        for (String field : KEY_METADATA) {
            if (!same(
                    stored.path("metadata").path(field),
                    written.path("metadata").path(field))) {
                return false;
            }
        }
        return true;
    }

    /** fabric8's 409 for a create of an object that exists. */
    static MockResponse exists(String kind, String name) {
        return refusal(new KubernetesCrudDispatcherException(
                String.format("%s '%s' already exists", kind, name), HttpURLConnection.HTTP_CONFLICT, kind));
    }

    /** fabric8's 400 for a create whose namespace is not the URL's; empty if it is or names none. */
    static Optional<MockResponse> elsewhere(JsonNode written, String pathNamespace) {
        String namespace = written.path("metadata").path("namespace").asText("");
        if (namespace.isEmpty() || namespace.equals(pathNamespace)) {
            return Optional.empty();
        }
        return Optional.of(refusal(new KubernetesCrudDispatcherException(
                "the namespace of the object (" + namespace + ") does not match the namespace on the URL ("
                        + pathNamespace + ")",
                HttpURLConnection.HTTP_BAD_REQUEST,
                written.path("kind").asText())));
    }

    /**
     * Makes {@code written} (an object to create) the first version of itself, as fabric8's store
     * makes it: its name (generated if it has only a prefix), the URL's namespace (none for a
     * cluster-scoped one), a uid, its creation time, {@code resourceVersion}, generation 1, no
     * deletion mark, and no status where {@code dropStatus} (a custom resource with a status subresource);
     * a Namespace's status phase Active.
     */
    static void initialize(
            ObjectNode written,
            String pathNamespace,
            String uid,
            String createdAt,
            long resourceVersion,
            boolean dropStatus) {
        ObjectNode metadata = (ObjectNode) written.get("metadata");
        if (metadata.path("name").asText("").isEmpty()) {
            metadata.put("name", metadata.path("generateName").asText("") + "-" + uid);
        }
        metadata.remove("deletionTimestamp");
        if (pathNamespace == null) {
            metadata.remove("namespace");
        } else {
            metadata.put("namespace", pathNamespace);
        }
        metadata.put("uid", uid);
        metadata.put("creationTimestamp", createdAt);
        metadata.put("resourceVersion", String.valueOf(resourceVersion));
        metadata.put("generation", 1);
        if (dropStatus) {
            written.remove("status");
        }
        if ("Namespace".equals(written.path("kind").asText())
                && "v1".equals(written.path("apiVersion").asText())) {
            // The API server's namespace strategy: a new namespace is Active whatever its body said.
            written.putObject("status").put("phase", "Active");
        }
    }

    /**
     * The key fabric8's store gives {@code object} (its {@code KubernetesAttributesExtractor.extract}
     * of the object as a {@code GenericKubernetesResource}), made from the tree: the group and
     * version of its apiVersion, its name and namespace (each twice, as fabric8 keys them), each
     * label, and the plural of a custom resource {@code definitions} knows; the plural of anything
     * else, as fabric8 takes it, from {@code pathAttributes}.
     */
    static AttributeSet key(
            JsonNode object, CustomResourceDefinitionProcessor definitions, AttributeSet pathAttributes) {
        Map<Key, Attribute> key = new HashMap<>();
        String apiVersion = object.path("apiVersion").asText(null);
        String group = null;
        String version = null;
        if (apiVersion != null && !apiVersion.isEmpty()) {
            group = ApiVersionUtil.trimGroup(apiVersion);
            version = ApiVersionUtil.trimVersion(apiVersion);
            if (group.equals(apiVersion)) {
                group = null;
            } else {
                put(key, KubernetesAttributesExtractor.API, group);
            }
            put(key, KubernetesAttributesExtractor.VERSION, version);
        }
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText(null);
        if (name != null && !name.isEmpty()) {
            put(key, KubernetesAttributesExtractor.NAME, name);
            put(key, KubernetesAttributesExtractor.METADATA_NAME, name);
        }
        String namespace = metadata.path("namespace").asText(null);
        if (namespace != null && !namespace.isEmpty()) {
            put(key, KubernetesAttributesExtractor.NAMESPACE, namespace);
            put(key, KubernetesAttributesExtractor.METADATA_NAMESPACE, namespace);
        }
        JsonNode labels = metadata.path("labels");
        if (labels.isObject()) {
            for (var label : labels.properties()) {
                put(key, LABEL_PREFIX + label.getKey(), label.getValue().asText());
            }
        }
        Optional<CustomResourceDefinitionContext> definition =
                definitions.findCrd(group, version, object.path("kind").asText(null));
        if (definition.isPresent()) {
            put(key, KubernetesAttributesExtractor.PLURAL, definition.get().getPlural());
            return new AttributeSet(key);
        }
        return AttributeSet.merge(pathAttributes, new AttributeSet(key));
    }

    private static void put(Map<Key, Attribute> key, String name, String value) {
        Key k = new Key(name);
        key.put(k, new Attribute(k, new Value(value)));
    }

    private static MockResponse refusal(KubernetesCrudDispatcherException e) {
        return new MockResponse().setResponseCode(e.getCode()).setBody(e.toStatusBody());
    }
}
