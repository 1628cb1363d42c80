package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PATCH as the apiserver applies it, so that admission webhooks review the object a patch would
 * store: read, patch, admit as an UPDATE (the mutating webhooks' patches applied), write back with the read's resourceVersion, and start
 * over if another writer got in between. A patch that names a resourceVersion itself is an
 * optimistic lock and gets the 409.
 * <ul>
 *   <li>JSON merge patch (RFC 7386), and strategic merge patch as a merge patch ({@link MergePatch});</li>
 *   <li>JSON patch (RFC 6902);</li>
 *   <li>server-side apply ({@code kubectl apply --server-side}): the applied configuration merged
 *       onto the object as a merge patch (lists replaced whole, no field ownership), or the object
 *       created from it, reviewed as a CREATE, when there is none.</li>
 * </ul>
 */
final class Patches {

    private static final int ATTEMPTS = 10;
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Pattern NAMESPACED = Pattern.compile("/namespaces/([^/]+)/");

    /** The object a write stores as the admission webhooks leave it, or their refusal. */
    interface Review {
        AdmissionWebhooks.Admitted admitted(
                String path, String operation, JsonNode object, JsonNode old, boolean dryRun);
    }

    private final CrudStore store;
    private final Review review;

    Patches(CrudStore store, Review review) {
        this.store = store;
        this.review = review;
    }

    /** Whether this class applies patches of {@code contentType}; the store answers the others. */
    static boolean handles(String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return type.contains("merge-patch+json") || type.contains("json-patch+json") || type.contains("apply-patch");
    }

    MockResponse patch(String path, String contentType, String body, boolean dryRun) {
        String type = contentType.toLowerCase(Locale.ROOT);
        JsonNode patch;
        try {
            patch = type.contains("apply-patch") ? YAML.readTree(body) : CrudStore.parse(body);
        } catch (IOException | IllegalArgumentException e) {
            return ApiStatus.badRequest("the body of the patch does not parse: " + e.getMessage());
        }
        if (patch == null) {
            return ApiStatus.badRequest("the body of the patch is empty");
        }
        if (type.contains("json-patch+json")) {
            return apply(path, current -> JsonPatch.apply(patch, current), false, dryRun);
        }
        if (type.contains("apply-patch") && store.get(path).isEmpty()) {
            return create(path, patch, dryRun);
        }
        return apply(
                path,
                current -> MergePatch.apply(current, patch),
                patch.path("metadata").has("resourceVersion"),
                dryRun);
    }

    private MockResponse apply(String path, UnaryOperator<JsonNode> patching, boolean pinned, boolean dryRun) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<ObjectNode> current = store.get(path);
            if (current.isEmpty()) {
                return notFound();
            }
            JsonNode patched;
            try {
                patched = patching.apply(current.get());
            } catch (RuntimeException e) {
                return ApiStatus.failure(
                        422, "Invalid", "the patch could not be applied: " + e.getMessage(), null, null, null);
            }
            if (!patched.isObject() || !patched.path("metadata").isObject()) {
                return ApiStatus.badRequest("the patch would leave the object without metadata");
            }
            AdmissionWebhooks.Admitted admitted = review.admitted(path, "UPDATE", patched, current.get(), dryRun);
            if (admitted.refusal().isPresent()) {
                return admitted.refusal().get();
            }
            if (!admitted.object().isObject()
                    || !admitted.object().path("metadata").isObject()) {
                return ApiStatus.badRequest("the admission webhooks' patches would leave the object without metadata");
            }
            patched = admitted.object();
            if (dryRun) {
                return ApiStatus.json(200, patched.toString());
            }
            if (!pinned) {
                ((ObjectNode) patched.get("metadata"))
                        .set("resourceVersion", current.get().path("metadata").path("resourceVersion"));
            }
            MockResponse written = store.put(path, patched);
            if (written.code() == 409 && !pinned) {
                continue;
            }
            return written;
        }
        return ApiStatus.failure(
                409, "Conflict", "the object kept changing while it was being patched; retry", null, null, null);
    }

    /** Server-side apply of an object that does not exist: its create, at the collection's path. */
    private MockResponse create(String path, JsonNode applied, boolean dryRun) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        int slash = trimmed.lastIndexOf('/');
        String name = trimmed.substring(slash + 1);
        if (!applied.isObject()) {
            return ApiStatus.badRequest("an applied configuration must be an object");
        }
        ObjectNode object = ((ObjectNode) applied).deepCopy();
        ObjectNode metadata =
                object.path("metadata").isObject() ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
        if (!metadata.path("name").asText(name).equals(name)) {
            return ApiStatus.badRequest("the name of the object ("
                    + metadata.path("name").asText() + ") does not match the name in the URL (" + name + ")");
        }
        metadata.put("name", name);
        Matcher namespace = NAMESPACED.matcher(trimmed);
        if (namespace.find() && !metadata.hasNonNull("namespace")) {
            metadata.put("namespace", namespace.group(1));
        }
        AdmissionWebhooks.Admitted admitted = review.admitted(path, "CREATE", object, null, dryRun);
        if (admitted.refusal().isPresent()) {
            return admitted.refusal().get();
        }
        if (dryRun) {
            return ApiStatus.json(201, admitted.object().toString());
        }
        return store.dispatch(
                HttpMethod.POST,
                trimmed.substring(0, slash),
                "application/json",
                admitted.object().toString());
    }

    private static MockResponse notFound() {
        return ApiStatus.failure(404, "NotFound", "the server could not find the requested resource", null, null, null);
    }
}
