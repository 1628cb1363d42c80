package io.lahar.streams.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /api/v1/jobs} read far enough to address the command: one Volcano Job
 * in YAML or JSON, with its namespace (default {@code default}) and name. Everything else is the
 * command gate's to judge, so the reasons of a bad manifest come back from admission, all at once.
 */
public sealed interface SubmitRequest {

    /** A job to submit: the key's parts and the manifest as JSON, as the user wrote it. */
    record Valid(String namespace, String name, String manifestJson) implements SubmitRequest {}

    /** The body cannot be addressed; every reason with its path. */
    record Invalid(List<ApiError.Reason> reasons) implements SubmitRequest {}

    static SubmitRequest parse(String body) {
        if (body == null || body.isBlank()) {
            return new Invalid(
                    List.of(new ApiError.Reason("", "the body is empty: send one Volcano Job in YAML or JSON")));
        }
        List<JsonNode> docs;
        try {
            docs = Manifests.readTrees(body);
        } catch (ManifestException e) {
            return new Invalid(List.of(new ApiError.Reason("", e.getMessage())));
        }
        if (docs.size() != 1) {
            return new Invalid(
                    List.of(new ApiError.Reason("", "expected one Job, found " + docs.size() + " documents")));
        }
        JsonNode doc = docs.get(0);
        List<ApiError.Reason> reasons = new ArrayList<>();
        if (!doc.isObject()) {
            return new Invalid(List.of(new ApiError.Reason("", "a manifest must be a mapping")));
        }
        if (!Job.KIND.equals(doc.path("kind").asText())) {
            reasons.add(new ApiError.Reason(
                    "kind", "expected Job, found '" + doc.path("kind").asText() + "'"));
        }
        if (!Job.API_VERSION.equals(doc.path("apiVersion").asText())) {
            reasons.add(new ApiError.Reason(
                    "apiVersion",
                    "expected " + Job.API_VERSION + ", found '"
                            + doc.path("apiVersion").asText() + "'"));
        }
        String name = doc.path("metadata").path("name").asText("");
        if (name.isBlank()) {
            reasons.add(new ApiError.Reason("metadata.name", "a Job needs a name"));
        }
        String namespace = doc.path("metadata").path("namespace").asText("");
        if (!reasons.isEmpty()) {
            return new Invalid(reasons);
        }
        return new Valid(namespace.isBlank() ? "default" : namespace, name, Manifests.toJson(doc));
    }
}
