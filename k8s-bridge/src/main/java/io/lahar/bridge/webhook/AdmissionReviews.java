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
import io.lahar.core.admission.Operation;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Volcano's {@code validatejob.volcano.sh} as a pure function: an AdmissionReview v1 of a
 * {@code batch.volcano.sh/v1alpha1} Job in, its answer out, decided by core admission (the same
 * rules the engine applies to the command the bridge makes of the CR). A refusal lists every
 * violation with its path; the answer echoes the request's uid.
 */
public final class AdmissionReviews {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What Volcano's webhook answers: its Status carries no code, which the API server makes 400. */
    static final int DENIED = 400;

    private AdmissionReviews() {}

    public static ObjectNode job(JsonNode review, AdmissionContext ctx) {
        JsonNode request = review.path("request");
        String uid = request.path("uid").asText();
        String operation = request.path("operation").asText();
        if (!operation.equals("CREATE") && !operation.equals("UPDATE")) {
            return answer(uid, null);
        }
        AdmissionResult<Manifest> result;
        try {
            GenericKubernetesResource cr = resource(request.path("object"));
            if (Mirrors.writtenByBridge(cr)) {
                return answer(uid, null); // the bridge's mirror of a job the engine admitted already
            }
            Job job = read(cr);
            Job old = operation.equals("UPDATE") ? read(resource(request.path("oldObject"))) : null;
            result = Admission.admit(Operation.valueOf(operation), job, old, ctx);
        } catch (ManifestException | IllegalArgumentException e) {
            // An object that is no Job at all is refused with the reason, never left unanswered.
            return answer(uid, List.of(new Violation("", e.getMessage())));
        }
        return answer(uid, result.accepted() ? null : result.violations());
    }

    private static GenericKubernetesResource resource(JsonNode object) {
        if (!object.path("metadata").isObject()) {
            throw new IllegalArgumentException("the review has no object with metadata");
        }
        return JSON.convertValue(object, GenericKubernetesResource.class);
    }

    private static Job read(GenericKubernetesResource cr) {
        return Manifests.read(VolcanoCrs.manifest(cr), Job.class);
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
