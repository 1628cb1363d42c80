package io.lahar.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Volcano's PodGroup mutating webhook: a group created in the queue {@code default} is patched into
 * its namespace's {@code scheduling.volcano.sh/queue-name}; any other queue, a namespace without the
 * annotation or one that cannot be read leave it unpatched (Volcano's mutate_podgroup_test cases).
 */
class PodGroupMutationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Function<String, Optional<Map<String, String>>> ANNOTATED = ns -> ns.equals("research")
            ? Optional.of(Map.of("scheduling.volcano.sh/queue-name", "ns-queue"))
            : ns.equals("plain") ? Optional.of(Map.of("other", "x")) : Optional.empty();

    private static ObjectNode review(String operation, String namespace, Object spec, Map<String, String> labels) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "u-1").put("operation", operation).put("namespace", namespace);
        request.putObject("resource")
                .put("group", "scheduling.volcano.sh")
                .put("version", "v1beta1")
                .put("resource", "podgroups");
        ObjectNode object = request.putObject("object");
        object.put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "PodGroup");
        ObjectNode metadata = object.putObject("metadata").put("name", "pg").put("namespace", namespace);
        metadata.set("labels", JSON.valueToTree(labels));
        if (spec != null) {
            object.set("spec", JSON.valueToTree(spec));
        }
        return review;
    }

    private static ObjectNode review(String namespace, Object spec) {
        return review("CREATE", namespace, spec, Map.of());
    }

    private static JsonNode response(JsonNode review, Function<String, Optional<Map<String, String>>> namespaces) {
        JsonNode answer = PodGroupMutation.review(review, namespaces);
        assertThat(answer.path("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(answer.path("response").path("uid").asText()).isEqualTo("u-1");
        return answer.path("response");
    }

    private static String patch(JsonNode response) {
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.path("patchType").asText()).isEqualTo("JSONPatch");
        return new String(Base64.getDecoder().decode(response.path("patch").asText()), StandardCharsets.UTF_8);
    }

    private static void allowedUnpatched(JsonNode response) {
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
        assertThat(response.has("patchType")).isFalse();
    }

    @Test
    void theDefaultQueueInAnAnnotatedNamespaceIsPatchedToTheNamespacesQueue() {
        assertThat(patch(response(review("research", Map.of("minMember", 1, "queue", "default")), ANNOTATED)))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/queue\",\"value\":\"ns-queue\"}]");
    }

    @Test
    void anotherQueueIsLeftAlone() {
        allowedUnpatched(response(review("research", Map.of("queue", "custom-queue")), ANNOTATED));
    }

    @Test
    void aNamespaceWithoutTheAnnotationPatchesNothing() {
        allowedUnpatched(response(review("plain", Map.of("queue", "default")), ANNOTATED));
        allowedUnpatched(response(review("plain", Map.of("queue", "default")), ns -> Optional.of(Map.of())));
    }

    @Test
    void aNamespaceThatCannotBeReadIsAllowedWithoutAPatch() {
        allowedUnpatched(response(review("missing", Map.of("queue", "default")), ANNOTATED));
    }

    @Test
    void aSpecNamingNoQueueIsInTheDefaultQueueAsTheCrdDefaultsItAndNoSpecIsNot() {
        assertThat(patch(response(review("research", Map.of("minMember", 2)), ANNOTATED)))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/queue\",\"value\":\"ns-queue\"}]");
        allowedUnpatched(response(review("research", null), ANNOTATED));
    }

    @Test
    void anEmptyQueueNameLeavesTheGroupInTheDefaultQueue() {
        allowedUnpatched(response(
                review("research", Map.of("queue", "default")),
                ns -> Optional.of(Map.of("scheduling.volcano.sh/queue-name", ""))));
    }

    @Test
    void theBridgesOwnGroupsOfLaharJobsAreLeftInTheirJobsQueue() {
        allowedUnpatched(response(
                review(
                        "CREATE",
                        "research",
                        Map.of("queue", "default"),
                        Map.of("app.kubernetes.io/managed-by", "lahar")),
                ANNOTATED));
    }

    @Test
    void anythingButTheCreateOfAPodGroupIsRefusedAsVolcanoRefusesIt() {
        JsonNode update = response(review("UPDATE", "research", Map.of("queue", "default"), Map.of()), ANNOTATED);
        assertThat(update.path("allowed").asBoolean()).isFalse();
        assertThat(update.path("status").path("message").asText())
                .isEqualTo("invalid operation `UPDATE`, expect operation to be `CREATE`");

        ObjectNode job = review("research", Map.of("queue", "default"));
        ((ObjectNode) job.path("request").path("resource")).put("resource", "jobs");
        JsonNode wrong = response(job, ANNOTATED);
        assertThat(wrong.path("allowed").asBoolean()).isFalse();
        assertThat(wrong.path("status").path("message").asText())
                .isEqualTo("expect resource to be scheduling.volcano.sh/v1beta1, Resource=podgroups");

        JsonNode notAString = response(review("research", Map.of("queue", 7)), ANNOTATED);
        assertThat(notAString.path("allowed").asBoolean()).isFalse();
    }
}
