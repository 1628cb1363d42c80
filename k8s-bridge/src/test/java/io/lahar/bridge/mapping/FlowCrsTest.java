package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.Manifests;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.SubmitFlowObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FlowCrsTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.890Z");
    private static final KubernetesSerialization K8S = new KubernetesSerialization();

    private static GenericKubernetesResource cr(String yaml) {
        return K8S.unmarshal(yaml, GenericKubernetesResource.class);
    }

    @Test
    void aJobFlowCrIsASubmitWhoseManifestCoreParsesAndADeleteNamesIt() {
        GenericKubernetesResource flow = cr("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: test
                  namespace: team
                  uid: u-1
                  generation: 3
                  annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
                spec:
                  jobRetainPolicy: delete
                  flows: [{name: a}, {name: b, dependsOn: {targets: [a]}}]
                status: {state: {phase: Running}}
                """);

        FlowCommand submit = FlowCrs.submit(flow, FlowKind.JobFlow, NOW);
        assertThat(submit.getRequestId()).isEqualTo("k8s:u-1:submit");
        assertThat(submit.getNamespace()).isEqualTo("team");
        assertThat(submit.getKind()).isEqualTo(FlowKind.JobFlow);
        String manifest = ((SubmitFlowObject) submit.getCommand()).getManifest();
        assertThat(manifest).doesNotContain("last-applied").doesNotContain("Running");
        // What the engine reads: core parses it as a JobFlow, its flows intact.
        assertThat(Manifests.read(manifest, JobFlow.class).spec().flows()).hasSize(2);

        assertThat(FlowCrs.resubmit(flow, FlowKind.JobFlow, NOW).getRequestId()).isEqualTo("k8s:u-1:generation-3");
        FlowCommand delete = FlowCrs.delete(flow, FlowKind.JobFlow, NOW);
        assertThat(delete.getRequestId()).isEqualTo("k8s:u-1:delete");
        assertThat(((DeleteFlowObject) delete.getCommand()).getMessage())
                .isEqualTo("JobFlow team/test deleted in Kubernetes");
    }

    @Test
    void theFlowStatusLeavesOutEmptyListsAndZeroTimes() {
        JobFlowStatusRecord record = JobFlowStatusRecord.newBuilder()
                .setNamespace("team")
                .setName("test")
                .setManifest("{}")
                .setTime(NOW)
                .setStatus(JobFlowStatus.newBuilder()
                        .setPendingJobs(List.of("test-b"))
                        .setJobStatusList(List.of(FlowJobStatus.newBuilder()
                                .setName("test-b")
                                .setState("Waiting")
                                .build()))
                        .setState(new JobFlowState("Pending"))
                        .build())
                .build();

        Map<String, Object> status = FlowCrs.flowStatus(record);

        assertThat(status).containsOnlyKeys("pendingJobs", "jobStatusList", "state");
        assertThat(status.get("pendingJobs")).isEqualTo(List.of("test-b"));
        assertThat(status.get("jobStatusList")).isEqualTo(List.of(Map.of("name", "test-b", "state", "Waiting")));
        assertThat(status.get("state")).isEqualTo(Map.of("phase", "Pending"));
    }

    @Test
    void aRefusedJobsConditionCarriesTheRefusalsMessage() {
        JobFlowStatusRecord record = JobFlowStatusRecord.newBuilder()
                .setNamespace("team")
                .setName("test")
                .setManifest("{}")
                .setTime(NOW)
                .setStatus(JobFlowStatus.newBuilder()
                        .setFailedJobs(List.of("test-a"))
                        .setConditions(Map.of(
                                "test-a",
                                io.lahar.schema.FlowCondition.newBuilder()
                                        .setPhase("Failed")
                                        .setMessage("spec.queue: queue \"gone\" does not exist")
                                        .build()))
                        .setState(new JobFlowState("Failed"))
                        .build())
                .build();

        Map<String, Object> status = FlowCrs.flowStatus(record);

        assertThat(status.get("conditions"))
                .isEqualTo(Map.of(
                        "test-a", Map.of("phase", "Failed", "message", "spec.queue: queue \"gone\" does not exist")));
    }

    @Test
    void resultsAreReportedOnTheKindOfObjectTheirCommandWasAbout() {
        CommandResult.Builder result = CommandResult.newBuilder()
                .setRequestId("k8s:u-1:submit")
                .setNamespace("team")
                .setName("test")
                .setAccepted(false)
                .setTime(NOW);
        assertThat(CommandEvents.Target.of(result.setKind("SubmitJobFlow").build()))
                .isEqualTo(CommandEvents.Target.JOB_FLOW);
        assertThat(CommandEvents.Target.of(result.setKind("DeleteJobTemplate").build()))
                .isEqualTo(CommandEvents.Target.JOB_TEMPLATE);
        assertThat(CommandEvents.Target.of(result.setKind("AbortJob").build())).isEqualTo(CommandEvents.Target.JOB);
        var event = CommandEvents.event(result.setKind("SubmitJobTemplate").build(), Optional.of("u-1"));
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("JobTemplate");
        assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("flow.volcano.sh/v1alpha1");
        assertThat(CommandEvents.fromCr(result.setRequestId("cli-7").build())).isFalse();
    }
}
