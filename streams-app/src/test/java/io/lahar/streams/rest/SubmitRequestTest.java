package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import org.junit.jupiter.api.Test;

class SubmitRequestTest {

    @Test
    void aYamlJobIsAddressedByItsNamespaceAndNameAndSentAsJson() {
        SubmitRequest request = SubmitRequest.parse("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: tf
                  namespace: ml
                spec:
                  tasks: []
                """);
        assertThat(request).isInstanceOfSatisfying(SubmitRequest.Valid.class, valid -> {
            assertThat(valid.namespace()).isEqualTo("ml");
            assertThat(valid.name()).isEqualTo("tf");
            assertThat(valid.manifestJson())
                    .startsWith("{")
                    .contains("\"name\":\"tf\"")
                    .contains("\"tasks\":[]");
        });
    }

    @Test
    void theNamespaceDefaultsToDefault() {
        assertThat(
                        SubmitRequest.parse(
                                "{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\"}}"))
                .isEqualTo(
                        new SubmitRequest.Valid(
                                "default",
                                "j",
                                "{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\"}}"));
    }

    @Test
    void everyAddressingProblemIsNamedWithItsPath() {
        assertThat(SubmitRequest.parse("apiVersion: v1\nkind: Queue\nmetadata: {}\n"))
                .isInstanceOfSatisfying(
                        SubmitRequest.Invalid.class,
                        invalid -> assertThat(invalid.reasons())
                                .extracting(ApiError.Reason::path)
                                .containsExactly("kind", "apiVersion", "metadata.name"));
    }

    @Test
    void unreadableEmptyAndMultiDocumentBodiesAreRejected() {
        assertThat(SubmitRequest.parse("")).isInstanceOf(SubmitRequest.Invalid.class);
        assertThat(SubmitRequest.parse("{not json"))
                .isInstanceOfSatisfying(
                        SubmitRequest.Invalid.class,
                        invalid ->
                                assertThat(invalid.reasons().get(0).message()).startsWith("cannot parse"));
        assertThat(SubmitRequest.parse("kind: Job\n---\nkind: Job\n"))
                .isInstanceOfSatisfying(
                        SubmitRequest.Invalid.class,
                        invalid ->
                                assertThat(invalid.reasons().get(0).message()).contains("2 documents"));
        assertThat(SubmitRequest.parse("- a\n- b\n")).isInstanceOf(SubmitRequest.Invalid.class);
    }

    @Test
    void aSummaryCarriesVcctlsColumns() {
        Job job = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: j
                  namespace: ml
                  labels: {volcano.sh/job-type: MPI}
                spec:
                  queue: q
                  minAvailable: 2
                  tasks:
                  - {name: a, replicas: 2}
                  - {name: b, replicas: 3}
                status:
                  state: {phase: Running}
                  minAvailable: 2
                  running: 4
                  pending: 1
                  retryCount: 1
                """, Job.class);
        assertThat(JobSummary.of(job))
                .isEqualTo(new JobSummary("ml", "j", null, "Running", "MPI", "q", 5, 2, 1, 4, 0, 0, 0, 1));
    }

    @Test
    void everyKindIsReadTheSameWayAgainstItsOwnKindAndVersion() {
        assertThat(SubmitRequest.parse(
                        "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata: {name: f}\n",
                        "JobFlow",
                        "flow.volcano.sh/v1alpha1"))
                .isInstanceOf(SubmitRequest.Valid.class);
        assertThat(SubmitRequest.parse(
                        "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {}\n",
                        "JobFlow",
                        "flow.volcano.sh/v1alpha1"))
                .isInstanceOfSatisfying(
                        SubmitRequest.Invalid.class,
                        invalid -> assertThat(invalid.reasons())
                                .extracting(ApiError.Reason::message)
                                .containsExactly(
                                        "expected JobFlow, found 'Job'",
                                        "expected flow.volcano.sh/v1alpha1, found 'batch.volcano.sh/v1alpha1'",
                                        "a JobFlow needs a name"));
    }
}
