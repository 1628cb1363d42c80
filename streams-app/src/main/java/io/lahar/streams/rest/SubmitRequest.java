package io.lahar.streams.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a {@code POST} to a kind's collection read far enough to address the command: one
 * manifest of that kind in YAML or JSON, with its namespace (default {@code default}) and name.
 * Everything else is the command gate's to judge, so the reasons of a bad manifest come back from
 * admission, all at once.
 */
public sealed interface SubmitRequest {

    /** An object to submit: the key's parts and the manifest as JSON, as the user wrote it. */
    record Valid(String namespace, String name, String manifestJson) implements SubmitRequest {}

    /** The body cannot be addressed; every reason with its path. */
    record Invalid(List<ApiError.Reason> reasons) implements SubmitRequest {}

    /** A {@code batch.volcano.sh/v1alpha1} Job. */
    static SubmitRequest parse(String body) {
        return parse(body, Job.KIND, Job.API_VERSION);
    }

    static SubmitRequest parse(String body, String kind, String apiVersion) {
        if (body == null || body.isBlank()) {
            return new Invalid(
                    List.of(new ApiError.Reason("", "the body is empty: send one " + kind + " in YAML or JSON")));
        }
        List<JsonNode> docs;
        try {
            docs = Manifests.readTrees(body);
        } catch (ManifestException e) {
            return new Invalid(List.of(new ApiError.Reason("", e.getMessage())));
        }
        if (docs.size() != 1) {
            return new Invalid(
                    List.of(new ApiError.Reason("", "expected one " + kind + ", found " + docs.size() + " documents")));
        }
        JsonNode doc = docs.get(0);
        if (!doc.isObject()) {
            return new Invalid(List.of(new ApiError.Reason("", "a manifest must be a mapping")));
        }
        List<ApiError.Reason> reasons = new ArrayList<>();
        if (!kind.equals(doc.path("kind").asText())) {
            reasons.add(new ApiError.Reason(
                    "kind", "expected " + kind + ", found '" + doc.path("kind").asText() + "'"));
        }
        if (!apiVersion.equals(doc.path("apiVersion").asText())) {
            reasons.add(new ApiError.Reason(
                    "apiVersion",
                    "expected " + apiVersion + ", found '"
                            + doc.path("apiVersion").asText() + "'"));
        }
        String name = doc.path("metadata").path("name").asText("");
        if (name.isBlank()) {
            reasons.add(new ApiError.Reason("metadata.name", "a " + kind + " needs a name"));
        }
        if (!reasons.isEmpty()) {
            return new Invalid(reasons);
        }
        String namespace = doc.path("metadata").path("namespace").asText("");
        return new Valid(namespace.isBlank() ? "default" : namespace, name, Manifests.toJson(doc));
    }
}
