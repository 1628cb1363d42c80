package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What Volcano's createJobPod copies from the Job onto every pod. */
class JobPodsTest {

    private static JsonNode metadataOfPod(String jobMetadata, String templateMetadata) {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: %s
                spec:
                  minAvailable: 1
                  tasks:
                  - name: worker
                    replicas: 1
                    template: {metadata: %s, spec: {containers: [{name: w, image: i}]}}
                """.formatted(jobMetadata, templateMetadata));
        return JobPods.create(job, job.spec().tasksOrEmpty().getFirst(), 0, 1, 0, "pg", List.of())
                .path("metadata");
    }

    @Test
    void theJobsPreemptableCooldownRevocableZoneAndBudgetAnnotationsGoOntoEveryPod() {
        JsonNode meta = metadataOfPod("""
                {name: j, namespace: ns, annotations: {volcano.sh/preemptable: "false", \
                volcano.sh/cooldown-time: 600s, volcano.sh/revocable-zone: "*", \
                volcano.sh/jdb-min-available: "2", other: x}}""", "{annotations: {volcano.sh/preemptable: \"true\"}}");

        JsonNode annotations = meta.path("annotations");
        assertThat(annotations.path("volcano.sh/preemptable").asText()).isEqualTo("false");
        assertThat(annotations.path("volcano.sh/cooldown-time").asText()).isEqualTo("600s");
        assertThat(annotations.path("volcano.sh/revocable-zone").asText()).isEqualTo("*");
        // The budget: min-available, and max-unavailable only without it (admission refuses both).
        assertThat(annotations.path("volcano.sh/jdb-min-available").asText()).isEqualTo("2");
        assertThat(annotations.has("volcano.sh/jdb-max-unavailable")).isFalse();
        assertThat(annotations.has("other")).isFalse();
    }

    @Test
    void withoutMinAvailableTheBudgetIsMaxUnavailableAndTheJobsLabelsGoOntoThePodsLabels() {
        JsonNode meta = metadataOfPod("""
                {name: j, namespace: ns, annotations: {volcano.sh/jdb-max-unavailable: "1"}, \
                labels: {volcano.sh/preemptable: "false", volcano.sh/cooldown-time: 60s, team: a}}""", "{}");

        assertThat(meta.path("annotations")
                        .path("volcano.sh/jdb-max-unavailable")
                        .asText())
                .isEqualTo("1");
        assertThat(meta.path("labels").path("volcano.sh/preemptable").asText()).isEqualTo("false");
        assertThat(meta.path("labels").path("volcano.sh/cooldown-time").asText())
                .isEqualTo("60s");
        assertThat(meta.path("labels").has("team")).isFalse();
        assertThat(meta.path("annotations").has("volcano.sh/preemptable")).isFalse();
    }
}
