package io.lahar.emulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Optional;

/**
 * The OpenAPI v3 documents kubectl reads before {@code apply} and {@code create}: the root (one
 * entry per group version) and, per group version, every resource's paths. A PATCH operation that
 * names its kind and takes {@code fieldValidation} tells kubectl the server validates fields, so
 * kubectl validates nothing itself (it would need OpenAPI v2 as protobuf) and sends
 * {@code fieldValidation=Strict}. The emulator keeps no schemas: each kind is an object that
 * preserves unknown fields, as a CRD declared with {@code x-kubernetes-preserve-unknown-fields}, so
 * strict validation has no unknown field to refuse. Volcano's own rules are admission's business
 * (the engine answers every command, the bridge reports refusals as Events).
 */
final class OpenApiV3 {

    private static final ObjectMapper JSON = Serialization.jsonMapper();
    private static final String ROOT = "/openapi/v3";

    private final ApiDiscovery discovery;

    OpenApiV3(ApiDiscovery discovery) {
        this.discovery = discovery;
    }

    /** Whether the path is one of these documents. */
    static boolean serves(String path) {
        return path.equals(ROOT) || path.equals(ROOT + "/") || path.startsWith(ROOT + "/");
    }

    /** The document at {@code path} ({@code /openapi/v3} or {@code /openapi/v3/apis/g/v}), if there is one. */
    Optional<String> document(String path) {
        String trimmed = path.replaceAll("/+$", "");
        if (trimmed.equals(ROOT)) {
            return Optional.of(root());
        }
        String groupVersionPath = trimmed.substring(ROOT.length() + 1);
        List<ApiResource> served = discovery.resources().stream()
                .filter(r -> relative(r).equals(groupVersionPath))
                .toList();
        return served.isEmpty() ? Optional.empty() : Optional.of(groupVersion(served));
    }

    private String root() {
        ObjectNode paths = JSON.createObjectNode();
        for (ApiResource resource : discovery.resources()) {
            paths.putObject(relative(resource))
                    .put("serverRelativeURL", ROOT + "/" + relative(resource) + "?hash=" + ApiDiscovery.GIT_VERSION);
        }
        ObjectNode root = JSON.createObjectNode();
        root.set("paths", paths);
        return root.toString();
    }

    private static String groupVersion(List<ApiResource> resources) {
        ObjectNode doc = JSON.createObjectNode().put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes (emulated)").put("version", ApiDiscovery.GIT_VERSION);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        for (ApiResource r : resources) {
            String scope = r.basePath() + (r.namespaced() ? "/namespaces/{namespace}/" : "/") + r.plural();
            ObjectNode collection = paths.putObject(scope);
            collection.set("get", operation(r, "list", false));
            collection.set("post", operation(r, "create", true));
            ObjectNode object = paths.putObject(scope + "/{name}");
            object.set("get", operation(r, "read", false));
            object.set("put", operation(r, "replace", true));
            object.set("patch", operation(r, "patch", true));
            object.set("delete", operation(r, "delete", false));
            ObjectNode schema = schemas.putObject(schemaName(r));
            schema.put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
            schema.putArray("x-kubernetes-group-version-kind").add(gvk(r));
            ObjectNode properties = schema.putObject("properties");
            properties.putObject("apiVersion").put("type", "string");
            properties.putObject("kind").put("type", "string");
            properties.putObject("metadata").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        }
        return doc.toString();
    }

    private static ObjectNode operation(ApiResource r, String verb, boolean writes) {
        ObjectNode op = JSON.createObjectNode()
                .put("operationId", verb + r.kind())
                .put("x-kubernetes-action", verb.equals("read") ? "get" : verb);
        op.set("x-kubernetes-group-version-kind", gvk(r));
        ArrayNode parameters = op.putArray("parameters");
        if (writes) {
            for (String name : List.of("dryRun", "fieldManager", "fieldValidation")) {
                parameters
                        .addObject()
                        .put("name", name)
                        .put("in", "query")
                        .put("required", false)
                        .putObject("schema")
                        .put("type", "string");
            }
        }
        op.putObject("responses")
                .putObject("200")
                .put("description", "OK")
                .putObject("content")
                .putObject("application/json")
                .putObject("schema")
                .put("$ref", "#/components/schemas/" + schemaName(r));
        return op;
    }

    private static ObjectNode gvk(ApiResource r) {
        return JSON.createObjectNode()
                .put("group", r.group())
                .put("version", r.version())
                .put("kind", r.kind());
    }

    private static String schemaName(ApiResource r) {
        return (r.group().isEmpty() ? "io.k8s.api.core" : r.group()) + "." + r.version() + "." + r.kind();
    }

    /** {@code api/v1} or {@code apis/group/version}, as the root names a group version. */
    private static String relative(ApiResource r) {
        return r.basePath().substring(1);
    }
}
