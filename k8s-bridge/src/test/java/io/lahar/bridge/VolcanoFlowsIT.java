package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowCondition;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobRunningHistory;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.TaskState;
import io.lahar.schema.Topics;
import io.lahar.schema.Violation;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flow.volcano.sh through the whole bridge, on the real broker and registry: a JobTemplate and a
 * JobFlow applied with kubectl become SubmitFlowObject commands on lahar.flow-commands, the
 * engine's flow status lands on the JobFlow CR with Volcano's field names, a rejection of a flow
 * command becomes a Warning Event on the JobFlow, and deleting the CRs sends DeleteFlowObject.
 */
@WithLaharInfra
class VolcanoFlowsIT {

    /** Past the registry client's idle timeout: an answer the registry loses once is asked again within it. */
    private static final Duration WAIT = RegistrySerdes.IDLE_TIMEOUT.plusSeconds(30);

    @Test
    void jobFlowsAndTemplatesAreSubmittedGetTheirStatusAndRejectionsAndAreDeleted(LaharInfra infra, @TempDir Path dir)
            throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String ns = "flow-it-" + suffix;
        String flow = "flow-" + suffix;
        String template = "tpl-" + suffix;
        String flowKey = Topics.jobKey(ns, flow);
        String templateKey = Topics.jobKey(ns, template);
        try (BridgeKafka kafka = new BridgeKafka(
                        infra,
                        suffix,
                        Map.of(Topics.FLOW_COMMANDS.name(), FlowCommand.class),
                        k -> k.equals(flowKey) || k.equals(templateKey));
                EmbeddedCluster cluster = EmbeddedCluster.start(
                        EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
                Bridge bridge = Bridge.start(
                        cluster.client(),
                        new Bridge.Settings(
                                KafkaClients.plaintext(infra.bootstrapServers()),
                                infra.registryUrl(),
                                null,
                                "flow-it-" + suffix,
                                true,
                                Optional.of(ns),
                                false,
                                Set.of(BridgeLabels.DEFAULT_SCHEDULER)),
                        Clock.systemUTC())) {
            KubernetesClient client = cluster.client();
            Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
            Path manifests =
                    Files.writeString(dir.resolve("flow.yaml"), """
                    apiVersion: flow.volcano.sh/v1alpha1
                    kind: JobTemplate
                    metadata: {name: %s, namespace: %s}
                    spec:
                      minAvailable: 1
                      tasks:
                      - {name: nginx, replicas: 1, template: {spec: {containers: [{name: nginx, image: nginx, command: [sh, -c, sleep 10s]}]}}}
                    ---
                    apiVersion: flow.volcano.sh/v1alpha1
                    kind: JobFlow
                    metadata: {name: %s, namespace: %s}
                    spec:
                      jobRetainPolicy: delete
                      flows:
                      - name: %s
                    """.formatted(template, ns, flow, ns, template));
            applyOrCreate(client, kubeconfig, manifests);

            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> kafka.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class)
                                            .size()
                                    >= 2))
                    .isTrue();
            GenericKubernetesResource flowCr = client.genericKubernetesResources(VolcanoKinds.JOB_FLOWS)
                    .inNamespace(ns)
                    .withName(flow)
                    .get();
            FlowCommand flowSubmit = only(kafka, flow);
            assertThat(flowSubmit.getKind()).isEqualTo(FlowKind.JobFlow);
            assertThat(flowSubmit.getRequestId())
                    .isEqualTo("k8s:" + flowCr.getMetadata().getUid() + ":submit");
            assertThat(flowSubmit.getSender()).isEqualTo("k8s-bridge");
            assertThat(flowSubmit.getCommand())
                    .isInstanceOfSatisfying(
                            SubmitFlowObject.class,
                            s -> assertThat(s.getManifest())
                                    .contains("\"apiVersion\":\"flow.volcano.sh/v1alpha1\"")
                                    .contains("\"kind\":\"JobFlow\"")
                                    .contains("\"jobRetainPolicy\":\"delete\"")
                                    .doesNotContain("last-applied-configuration"));
            FlowCommand templateSubmit = only(kafka, template);
            assertThat(templateSubmit.getKind()).isEqualTo(FlowKind.JobTemplate);
            assertThat(templateSubmit.getCommand())
                    .isInstanceOfSatisfying(
                            SubmitFlowObject.class,
                            s -> assertThat(s.getManifest())
                                    .contains("\"kind\":\"JobTemplate\"")
                                    .contains("\"name\":\"nginx\""));

            // The engine's flow status on lahar.flow-status.
            Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
            String job = flow + "-" + template;
            kafka.send(
                    Topics.FLOW_STATUS.name(),
                    flowKey,
                    JobFlowStatusRecord.newBuilder()
                            .setNamespace(ns)
                            .setName(flow)
                            .setUid(flowCr.getMetadata().getUid())
                            .setManifest("{}")
                            .setTime(t0.plusSeconds(3))
                            .setStatus(JobFlowStatus.newBuilder()
                                    .setRunningJobs(List.of(job))
                                    .setJobStatusList(List.of(FlowJobStatus.newBuilder()
                                            .setName(job)
                                            .setState("Running")
                                            .setStartTimestamp(t0)
                                            .setRestartCount(1)
                                            .setRunningHistories(List.of(
                                                    JobRunningHistory.newBuilder()
                                                            .setStartTimestamp(t0)
                                                            .setEndTimestamp(t0.plusSeconds(3))
                                                            .setState("Pending")
                                                            .build(),
                                                    JobRunningHistory.newBuilder()
                                                            .setStartTimestamp(t0.plusSeconds(3))
                                                            .setState("Running")
                                                            .build()))
                                            .build()))
                                    .setConditions(Map.of(
                                            job,
                                            FlowCondition.newBuilder()
                                                    .setPhase("Running")
                                                    .setCreateTime(t0)
                                                    .setRunningDuration(2_000L)
                                                    .setTaskStatusCount(
                                                            Map.of("nginx", new TaskState(Map.of("Running", 1))))
                                                    .build()))
                                    .setState(new JobFlowState("Running"))
                                    .build())
                            .build());
            var flows = client.genericKubernetesResources(VolcanoKinds.JOB_FLOWS)
                    .inNamespace(ns)
                    .withName(flow);
            assertThat(kafka.pollUntil(WAIT, () -> flows.get().<Object>get("status") != null))
                    .isTrue();
            GenericKubernetesResource withStatus = flows.get();
            assertThat(withStatus.<Object>get("status", "state", "phase")).isEqualTo("Running");
            assertThat(withStatus.<List<Object>>get("status", "runningJobs")).containsExactly(job);
            assertThat(withStatus.<Map<String, Object>>get("status"))
                    .doesNotContainKeys("pendingJobs", "completedJobs");
            assertThat(withStatus.<Object>get("status", "jobStatusList", 0, "name"))
                    .isEqualTo(job);
            assertThat(withStatus.<Object>get("status", "jobStatusList", 0, "startTimestamp"))
                    .isEqualTo("2026-03-01T10:00:00Z");
            assertThat(withStatus.<Map<String, Object>>get("status", "jobStatusList", 0))
                    .doesNotContainKey("endTimestamp");
            assertThat(((Number) withStatus.get("status", "jobStatusList", 0, "restartCount")).intValue())
                    .isEqualTo(1);
            assertThat(withStatus.<Object>get("status", "jobStatusList", 0, "runningHistories", 1, "state"))
                    .isEqualTo("Running");
            assertThat(withStatus.<Object>get("status", "jobStatusList", 0, "runningHistories", 0, "endTimestamp"))
                    .isEqualTo("2026-03-01T10:00:03Z");
            assertThat(withStatus.<Object>get("status", "conditions", job, "phase"))
                    .isEqualTo("Running");
            assertThat(withStatus.<Object>get("status", "conditions", job, "createTime"))
                    .isEqualTo("2026-03-01T10:00:00Z");
            assertThat(withStatus.<Object>get("status", "conditions", job, "runningDuration"))
                    .isEqualTo("2s");
            assertThat(((Number) withStatus.get(
                                    "status", "conditions", job, "taskStatusCount", "nginx", "phase", "Running"))
                            .intValue())
                    .isEqualTo(1);
            if (Kubectl.installed()) {
                String listed = kubectl(kubeconfig, "get", "jobflows,jobtemplates", "-n", ns);
                assertThat(listed)
                        .contains("jobflow.flow.volcano.sh/" + flow)
                        .contains("jobtemplate.flow.volcano.sh/" + template)
                        .contains("Running");
            }

            // A rejected flow command is a Warning Event on the JobFlow, as for Jobs.
            kafka.send(
                    Topics.COMMAND_RESULTS.name(),
                    flowKey,
                    CommandResult.newBuilder()
                            .setRequestId("k8s:" + flowCr.getMetadata().getUid() + ":generation-2")
                            .setNamespace(ns)
                            .setName(flow)
                            .setKind("SubmitJobFlow")
                            .setAccepted(false)
                            .setSender("k8s-bridge")
                            .setTime(t0.plusSeconds(4))
                            .setViolations(List.of(new Violation("spec", "a JobFlow cannot be updated once submitted")))
                            .build());
            assertThat(kafka.pollUntil(WAIT, () -> !events(client, ns, flow).isEmpty()))
                    .isTrue();
            assertThat(events(client, ns, flow)).singleElement().satisfies(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("Rejected");
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("JobFlow");
                assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("flow.volcano.sh/v1alpha1");
                assertThat(e.getInvolvedObject().getUid())
                        .isEqualTo(flowCr.getMetadata().getUid());
                assertThat(e.getMessage()).contains("spec: a JobFlow cannot be updated once submitted");
            });

            flows.delete();
            client.genericKubernetesResources(VolcanoKinds.JOB_TEMPLATES)
                    .inNamespace(ns)
                    .withName(template)
                    .delete();
            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> kafka.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class).stream()
                                            .filter(c -> c.getCommand() instanceof DeleteFlowObject)
                                            .count()
                                    == 2))
                    .isTrue();
            assertThat(kafka.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class))
                    .filteredOn(c -> c.getCommand() instanceof DeleteFlowObject)
                    .extracting(FlowCommand::getKind)
                    .containsExactlyInAnyOrder(FlowKind.JobFlow, FlowKind.JobTemplate);
            assertThat(bridge.isRunning()).isTrue();
        }
    }

    private static FlowCommand only(BridgeKafka kafka, String name) {
        List<FlowCommand> commands = kafka.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class).stream()
                .filter(c -> c.getName().equals(name))
                .toList();
        assertThat(commands).hasSize(1);
        return commands.getFirst();
    }

    private static List<Event> events(KubernetesClient client, String ns, String name) {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    /** {@code kubectl apply} when kubectl is installed (what a Volcano user does), else the same objects through the API. */
    private static void applyOrCreate(KubernetesClient client, Path kubeconfig, Path manifests) throws Exception {
        if (Kubectl.installed()) {
            // The emulator serves no OpenAPI document (docs/embedded-cluster.md): no client-side validation.
            kubectl(kubeconfig, "apply", "-f", manifests.toString());
            return;
        }
        KubernetesSerialization yaml = new KubernetesSerialization();
        for (String doc : Files.readString(manifests).split("(?m)^---$")) {
            GenericKubernetesResource cr = yaml.unmarshal(doc, GenericKubernetesResource.class);
            var kind = cr.getKind().equals("JobFlow") ? VolcanoKinds.JOB_FLOWS : VolcanoKinds.JOB_TEMPLATES;
            client.genericKubernetesResources(kind)
                    .inNamespace(cr.getMetadata().getNamespace())
                    .resource(cr)
                    .create();
        }
    }

    private static String kubectl(Path kubeconfig, String... args) throws Exception {
        return Kubectl.run(kubeconfig, args);
    }
}
