package io.lahar.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The webhooks of Queues, JobFlows, JobTemplates and CronJobs as pure functions: each refusal
 * lists every violation core admission finds, with its path; the operations each is registered
 * for are the ones reviewed (a Queue's DELETE too); the bridge's mirrors pass.
 */
class KindReviewsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("..", "examples");

    static ObjectNode review(String operation, Object object, Object old) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "uid-" + operation).put("operation", operation);
        request.set("object", object == null ? null : JSON.valueToTree(object));
        request.set("oldObject", old == null ? null : JSON.valueToTree(old));
        return review;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> example(String file) throws Exception {
        return Manifests.yamlMapper().readValue(Files.readString(EXAMPLES.resolve(file)), Map.class);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) throws Exception {
        return Manifests.yamlMapper().readValue(text, Map.class);
    }

    private static String denied(JsonNode answer) {
        assertThat(answer.path("response").path("allowed").asBoolean())
                .as(answer.toString())
                .isFalse();
        return answer.path("response").path("status").path("message").asText();
    }

    private static boolean allowed(JsonNode answer) {
        return answer.path("response").path("allowed").asBoolean();
    }

    private static JsonNode reviewed(ValidatedKind kind, ObjectNode review, AdmissionContext ctx) {
        return AdmissionReviews.review(review, kind, m -> ctx);
    }

    private static GenericKubernetesResource queueCr(String name, String parent) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion("scheduling.volcano.sh/v1beta1");
        cr.setKind("Queue");
        cr.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(name)
                .withResourceVersion("1")
                .build());
        cr.setAdditionalProperty("spec", Map.of("weight", 1, "parent", parent));
        cr.setAdditionalProperty("status", Map.of("state", "Open"));
        return cr;
    }

    @Test
    void anInvalidQueueIsDeniedWithEveryReason() throws Exception {
        String message = denied(reviewed(
                ValidatedKind.QUEUES,
                review("CREATE", example("invalid-queue.yaml"), null),
                AdmissionContext.freshInstall()));
        assertThat(message)
                .contains(
                        "spec.weight: queue weight must be a positive integer",
                        "spec.deserved.cpu: deserved[cpu] must be >= guarantee[cpu]=8",
                        "spec.guarantee.resource.cpu: guarantee[cpu]=8 must be <= capability[cpu]=4",
                        "spec.parent: parent queue \"nowhere\" not found");
        Map<String, Object> valid = yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                spec: {weight: 2, capability: {cpu: 8}, deserved: {cpu: 4}}
                """);
        assertThat(allowed(
                        reviewed(ValidatedKind.QUEUES, review("CREATE", valid, null), AdmissionContext.freshInstall())))
                .isTrue();
        Map<String, Object> closing = yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                spec: {weight: 2}
                status: {state: Bogus}
                """);
        assertThat(denied(reviewed(
                        ValidatedKind.QUEUES, review("UPDATE", closing, valid), AdmissionContext.freshInstall())))
                .isEqualTo("status.state: unsupported value \"Bogus\": supported values: \"Open\", \"Closed\"");
    }

    @Test
    void theQueueContextIsTheCrsWithTheirHierarchy() throws Exception {
        AdmissionContext ctx = KnownObjects.ofQueues(List.of(
                queueCr("root", ""),
                queueCr("default", "root"),
                queueCr("l1", "root"),
                queueCr("l2", "l1"),
                queueCr("l3", "l2"),
                queueCr("l4", "l3"),
                queueCr("l5", "l4")));
        Map<String, Object> tooDeep = yaml("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: l6}
                spec: {parent: l5}
                """);
        assertThat(denied(reviewed(ValidatedKind.QUEUES, review("CREATE", tooDeep, null), ctx)))
                .isEqualTo("spec.parent: queue l6 exceeds the maximum allowed depth of 5");
    }

    @Test
    void aQueueDeleteIsReviewedAsVolcanoReviewsIt() throws Exception {
        AdmissionContext ctx = KnownObjects.ofQueues(List.of(
                queueCr("root", ""), queueCr("default", "root"), queueCr("team", "root"), queueCr("dev", "team")));
        assertThat(denied(reviewed(ValidatedKind.QUEUES, review("DELETE", null, queueCr("default", "root")), ctx)))
                .isEqualTo("metadata.name: `default` queue can not be deleted");
        assertThat(denied(reviewed(ValidatedKind.QUEUES, review("DELETE", null, queueCr("team", "root")), ctx)))
                .isEqualTo("metadata.name: queue team can not be deleted because it has 1 child queues: dev");
        assertThat(allowed(reviewed(ValidatedKind.QUEUES, review("DELETE", null, queueCr("dev", "team")), ctx)))
                .isTrue();
        // A queue the cache has not seen yet is the stored object of the review all the same.
        assertThat(allowed(reviewed(
                        ValidatedKind.QUEUES,
                        review("DELETE", null, queueCr("new", "root")),
                        AdmissionContext.freshInstall())))
                .isTrue();
        // Jobs are not reviewed on DELETE: their webhook is registered for CREATE and UPDATE only.
        assertThat(allowed(reviewed(
                        ValidatedKind.JOBS,
                        review("DELETE", null, example("invalid-job.yaml")),
                        AdmissionContext.freshInstall())))
                .isTrue();
    }

    @Test
    void aJobFlowThatIsNoDagIsDeniedAndOnlyASpecChangeIsAnUpdate() throws Exception {
        Map<String, Object> cyclic = example("invalid-jobflow-cycle.yaml");
        String message = denied(
                reviewed(ValidatedKind.JOB_FLOWS, review("CREATE", cyclic, null), AdmissionContext.freshInstall()));
        assertThat(message)
                .contains(
                        "spec.flows[4].dependsOn.targets[0]: ",
                        "spec.flows: jobflow flows do not form a directed acyclic graph (DAG): ",
                        "; ");
        Map<String, Object> flow = example("jobflow.yaml");
        assertThat(allowed(reviewed(
                        ValidatedKind.JOB_FLOWS, review("CREATE", flow, null), AdmissionContext.freshInstall())))
                .isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> labelled = JSON.convertValue(JSON.valueToTree(flow), Map.class);
        ((Map<String, Object>) labelled.get("metadata")).put("labels", Map.of("team", "ml"));
        assertThat(allowed(reviewed(
                        ValidatedKind.JOB_FLOWS, review("UPDATE", labelled, flow), AdmissionContext.freshInstall())))
                .isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> retained = JSON.convertValue(JSON.valueToTree(flow), Map.class);
        ((Map<String, Object>) retained.get("spec")).put("jobRetainPolicy", "retain");
        assertThat(denied(reviewed(
                        ValidatedKind.JOB_FLOWS, review("UPDATE", retained, flow), AdmissionContext.freshInstall())))
                .isEqualTo("spec: jobflow updates are not supported");
    }

    @Test
    void aJobFlowIsCheckedAgainstTheTemplatesItNames() throws Exception {
        Map<String, Object> flow = yaml("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: big, namespace: default}
                spec:
                  flows:
                  - name: a
                    patch: {spec: {minAvailable: 5}}
                """);
        assertThat(allowed(reviewed(
                        ValidatedKind.JOB_FLOWS, review("CREATE", flow, null), AdmissionContext.freshInstall())))
                .isTrue();
        AdmissionContext withTemplate = AdmissionContext.freshInstall()
                .with(Manifests.read(
                        Files.readString(EXAMPLES.resolve("jobflow-templates.yaml"))
                                .split("\n---\n")[0]
                                .replace("name: a\n", "name: a\n  namespace: default\n"),
                        io.lahar.core.api.JobTemplate.class));
        assertThat(denied(reviewed(ValidatedKind.JOB_FLOWS, review("CREATE", flow, null), withTemplate)))
                .startsWith("spec.flows[0]");
    }

    @Test
    void anInvalidJobTemplateIsDeniedWithEveryReason() throws Exception {
        String message = denied(reviewed(
                ValidatedKind.JOB_TEMPLATES,
                review("CREATE", example("invalid-jobtemplate.yaml"), null),
                AdmissionContext.freshInstall()));
        assertThat(message).contains("spec.maxRetry: ", "spec.tasks[0].name: ", "spec.minAvailable: ", "; ");
        Map<String, Object> templates = Manifests.yamlMapper()
                .readValue(
                        Files.readString(EXAMPLES.resolve("jobflow-templates.yaml"))
                                .split("\n---\n")[0],
                        Map.class);
        assertThat(allowed(reviewed(
                        ValidatedKind.JOB_TEMPLATES,
                        review("CREATE", templates, null),
                        AdmissionContext.freshInstall())))
                .isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anInvalidCronJobIsDeniedWithEveryReasonOnCreateAndUpdate() throws Exception {
        Map<String, Object> broken = example("invalid-cronjob.yaml");
        String message = denied(
                reviewed(ValidatedKind.CRON_JOBS, review("CREATE", broken, null), AdmissionContext.freshInstall()));
        assertThat(message)
                .contains(
                        "spec.schedule: ",
                        "spec.timeZone: ",
                        "spec.successfulJobsHistoryLimit: ",
                        "spec.jobTemplate.spec.minAvailable: ");
        Map<String, Object> valid = example("cronjob.yaml");
        assertThat(allowed(reviewed(
                        ValidatedKind.CRON_JOBS, review("CREATE", valid, null), AdmissionContext.freshInstall())))
                .isTrue();
        ((Map<String, Object>) valid.get("metadata")).put("name", "broken-cronjob");
        assertThat(denied(reviewed(
                        ValidatedKind.CRON_JOBS, review("UPDATE", broken, valid), AdmissionContext.freshInstall())))
                .isEqualTo(message);
    }

    @Test
    void aReviewOfAnotherKindIsDeniedAndTheBridgesMirrorsPass() throws Exception {
        assertThat(denied(reviewed(
                        ValidatedKind.QUEUES,
                        review("CREATE", example("cronjob.yaml"), null),
                        AdmissionContext.freshInstall())))
                .isEqualTo(
                        ": the review is of a batch.volcano.sh/v1alpha1 CronJob, not of a scheduling.volcano.sh/v1beta1 Queue");
        GenericKubernetesResource mirror =
                JSON.convertValue(example("invalid-queue.yaml"), GenericKubernetesResource.class);
        mirror.getMetadata()
                .setAnnotations(Map.of(
                        Mirrors.MIRROR_OF,
                        Mirrors.QUEUE_SOURCE,
                        Mirrors.SPEC_HASH,
                        Mirrors.specHash(mirror.getAdditionalProperties().get("spec"))));
        assertThat(allowed(reviewed(
                        ValidatedKind.QUEUES, review("CREATE", mirror, null), AdmissionContext.freshInstall())))
                .isTrue();
    }
}
