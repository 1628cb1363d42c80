package io.lahar.streams.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.JobFlowAdmission;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.FlowInfo;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.JobFlowController;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The flow engine's pure pieces: re-keying job status by flow, the status record, the timers' due time. */
class FlowCodecsTest {

    private static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();

    private static JobStatusRecord status(String namespace, String job, String manifest, String phase) {
        return JobStatusRecord.newBuilder()
                .setNamespace(namespace)
                .setName(job)
                .setUid("u")
                .setQueue("default")
                .setManifest(manifest)
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder().setPhase(phase).build())
                        .setMinAvailable(1)
                        .build())
                .setTime(Instant.ofEpochMilli(T0))
                .build();
    }

    @Test
    void jobStatusIsReKeyedByTheFlowThatCreatedTheJob() {
        String annotated =
                "{\"metadata\":{\"name\":\"test-a\",\"namespace\":\"team\",\"annotations\":{\"volcano.sh/createdByJobFlow\":\"team.test\"}}}";
        String labelled =
                "{\"metadata\":{\"name\":\"test-a\",\"namespace\":\"team\",\"labels\":{\"volcano.sh/createdByJobFlow\":\"team.my.flow\"}}}";
        String plain = "{\"metadata\":{\"name\":\"solo\",\"namespace\":\"team\"}}";
        assertThat(FlowCodecs.flowKey(status("team", "test-a", annotated, "Running")))
                .contains("team/test");
        // Namespaces have no dots: the flow's name keeps the rest.
        assertThat(FlowCodecs.flowKey(status("team", "test-a", labelled, "Running")))
                .contains("team/my.flow");
        assertThat(FlowCodecs.flowKey(status("team", "solo", plain, "Running"))).isEmpty();
        // A mark naming another namespace is not trusted: flows own jobs of their own namespace only.
        assertThat(FlowCodecs.flowKey(status("other", "test-a", annotated, "Running")))
                .isEmpty();

        byte[] bytes = "..volcano.sh/createdByJobFlow..".getBytes(StandardCharsets.UTF_8);
        assertThat(new ByteMarker("volcano.sh/createdByJobFlow".getBytes(StandardCharsets.UTF_8)).in(bytes))
                .isTrue();
        assertThat(new ByteMarker("volcano.sh/createdByJobTemplate".getBytes(StandardCharsets.UTF_8)).in(bytes))
                .isFalse();
    }

    @Test
    void theStatusRecordCarriesVolcanosFieldsWithZeroTimesForJobsNotCreated() throws Exception {
        JobFlow flow = JobFlowAdmission.applyDefaults(
                Manifests.read(Files.readString(Path.of("../examples/jobflow.yaml")), JobFlow.class));
        flow = new JobFlow(flow.apiVersion(), flow.kind(), flow.metadata(), flow.spec(), null);
        List<JobTemplate> templates =
                Manifests.readAll(Files.readString(Path.of("../examples/jobflow-templates.yaml"))).stream()
                        .map(JobTemplate.class::cast)
                        .toList();
        JobFlowController controller = new JobFlowController();
        FlowInfo info = controller
                .apply(FlowInfo.empty(), new FlowInput.Submit(flow, templates, T0))
                .state();
        info = controller
                .apply(info, new FlowInput.JobStatusObserved("test-a", JobPhase.Running, Map.of(), 0, T0 + 5_000))
                .state();

        JobFlowStatusRecord record = FlowCodecs.toStatusRecord(info);
        assertThat(record.getNamespace()).isEqualTo("default");
        assertThat(record.getName()).isEqualTo("test");
        assertThat(record.getStatus().getState().getPhase()).isEqualTo("Running");
        assertThat(record.getStatus().getRunningJobs()).containsExactly("test-a");
        assertThat(record.getStatus().getJobStatusList()).singleElement().satisfies(j -> {
            assertThat(j.getName()).isEqualTo("test-a");
            assertThat(j.getStartTimestamp()).isEqualTo(Instant.ofEpochMilli(T0));
            assertThat(j.getEndTimestamp()).isEqualTo(Instant.EPOCH);
            assertThat(j.getRunningHistories()).extracting(h -> h.getState()).containsExactly("Pending", "Running");
        });
        assertThat(record.getStatus().getConditions().get("test-a").getRunningDuration())
                .isEqualTo(5_000L);
        assertThat(record.getStatus().getConditions().get("test-b").getPhase()).isEqualTo("Waiting");
        assertThat(record.getStatus().getConditions().get("test-b").getCreateTime())
                .isNull();
        assertThat(record.getManifest()).doesNotContain("\"status\"").contains("\"jobRetainPolicy\":\"delete\"");

        // A template as lahar.job-templates carries it reads back as the same template.
        JobTemplate a = templates.getFirst();
        JobTemplate back = FlowCodecs.fromTemplateRecord(FlowCodecs.toTemplateRecord(a.withSpec(a.spec()), T0));
        assertThat(back.spec()).isEqualTo(a.spec());
        assertThat(back.name()).isEqualTo("a");

        // Nothing due: no backoff, no missing template.
        assertThat(FlowTimers.nextDue(info)).isEqualTo(OptionalLong.empty());
    }
}
