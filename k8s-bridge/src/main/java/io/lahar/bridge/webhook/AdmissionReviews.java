package io.lahar.bridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Volcano's validating webhooks as a pure function: an AdmissionReview v1 of one of the
 * {@link ValidatedKind}s in, its answer out, decided by core admission (the same rules the engine
 * applies to the command the bridge makes of the CR). A refusal lists every violation with its
 * path; the answer echoes the request's uid.
 */
public final class AdmissionReviews {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What Volcano's webhook answers: its Status carries no code, which the API server makes 400. */
    static final int DENIED = 400;

    private AdmissionReviews() {}

    /**
     * The answer to {@code review}, a review of a {@code kind} object; {@code context} gives what
     * admission of the object read from the review looks up.
     */
    public static ObjectNode review(JsonNode review, ValidatedKind kind, Function<Manifest, AdmissionContext> context) {
        JsonNode request = review.path("request");
        String uid = request.path("uid").asText();
        String operation = request.path("operation").asText();
        if (!kind.operations().contains(operation)) {
            return answer(uid, null);
        }
        AdmissionResult<Manifest> result;
        try {
            if (operation.equals("DELETE")) {
                // The API server sends the stored object as oldObject; it exists, whatever a cache says.
                Manifest stored = read(resource(request.path("oldObject"), kind), kind);
                result = Admission.delete(stored, context.apply(stored).with(stored));
            } else {
                GenericKubernetesResource cr = resource(request.path("object"), kind);
                if (Mirrors.writtenByBridge(cr)) {
                    return answer(uid, null); // the bridge's mirror of an object the engine admitted already
                }
                Manifest object = read(cr, kind);
                AdmissionContext ctx = context.apply(object);
                result = operation.equals("CREATE")
                        // Whether the name is taken is the API server's to answer (409), not a cache's.
                        ? Admission.create(object, ctx.without(object))
                        : Admission.update(read(resource(request.path("oldObject"), kind), kind), object, ctx);
            }
        } catch (ManifestException | IllegalArgumentException e) {
            // An object that is not of the kind at all is refused with the reason, never left unanswered.
            return answer(uid, List.of(new Violation("", e.getMessage())));
        }
        return answer(uid, result.accepted() ? null : result.violations());
    }

    private static GenericKubernetesResource resource(JsonNode object, ValidatedKind kind) {
        if (!object.path("metadata").isObject()) {
            throw new IllegalArgumentException("the review has no object with metadata");
        }
        String objectKind = object.path("kind").asText(kind.resource().getKind());
        String apiVersion = object.path("apiVersion").asText(kind.apiVersion());
        if (!objectKind.equals(kind.resource().getKind()) || !apiVersion.equals(kind.apiVersion())) {
            throw new IllegalArgumentException("the review is of a " + apiVersion + " " + objectKind + ", not of a "
                    + kind.apiVersion() + " " + kind.resource().getKind());
        }
        return JSON.convertValue(object, GenericKubernetesResource.class);
    }

    /**
     * The CR as the manifest admission reads: what the bridge's command would carry (identity,
     * labels, annotations, spec); a Queue's status too, whose state and allocation its rules read.
     */
    static Manifest read(GenericKubernetesResource cr, ValidatedKind kind) {
        String manifest =
                VolcanoCrs.manifest(cr, kind.apiVersion(), kind.resource().getKind());
        Object status = cr.getAdditionalProperties().get("status");
        if (kind == ValidatedKind.QUEUES) {
            try {
                ObjectNode tree = (ObjectNode) JSON.readTree(manifest);
                ((ObjectNode) tree.path("metadata")).remove("namespace");
                if (status != null) {
                    tree.set("status", JSON.valueToTree(status));
                }
                manifest = tree.toString();
            } catch (IOException e) {
                throw new IllegalArgumentException("the queue is not JSON: " + e.getMessage(), e);
            }
        }
        return Manifests.read(manifest, kind.type());
    }

    private static ObjectNode answer(String uid, List<Violation> violations) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode response = review.putObject("response");
        response.put("uid", uid).put("allowed", violations == null);
        if (violations != null) {
            response.putObject("status")
                    .put("status", "Failure")
                    .put("code", DENIED)
                    .put("reason", "BadRequest")
                    .put("message", violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        return review;
    }
}
