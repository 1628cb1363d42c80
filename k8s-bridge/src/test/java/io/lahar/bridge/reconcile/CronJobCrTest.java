package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.Kubectl;
import io.lahar.bridge.mapping.CommandEvents;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobActiveJob;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobEvent;
import io.lahar.schema.CronJobStatus;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeleteCronJob;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.Topics;
import io.lahar.schema.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Volcano's CronJob CR against the embedded cluster: created, changed and deleted it becomes
 * CronJob commands; the engine's state comes back as Volcano's status on the CR and its events
 * as Kubernetes Events; a refused one is a Warning Event naming the field.
 */
class CronJobCrTest {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static final ListSink sink = new ListSink();
    private static VolcanoApiWatcher watcher;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
        client = cluster.client();
        watcher = new VolcanoApiWatcher(client, sink, Clock.systemUTC(), 0, Optional.empty()).start();
    }

    @AfterAll
    static void stop() {
        watcher.close();
        cluster.close();
    }

    private static List<CronJobCommand> commandsFor(String name) {
        return sink.values(Topics.CRONJOB_COMMANDS.name(), CronJobCommand.class).stream()
                .filter(c -> c.getName().equals(name))
                .toList();
    }

    @Test
    void volcanosExampleBecomesCommandsAndItsStatusAndEventsComeBack(@TempDir Path dir) throws Exception {
        Path example = Path.of("..", "examples", "cronjob.yaml");
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
        if (Kubectl.installed()) {
            // The emulator serves no OpenAPI document (docs/embedded-cluster.md): no client-side validation.
            Kubectl.run(kubeconfig, "apply", "-n", "default", "-f", example.toString());
        } else {
            GenericKubernetesResource cr = K8S.unmarshal(Files.readString(example), GenericKubernetesResource.class);
            cr.getMetadata().setNamespace("default");
            client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                    .inNamespace("default")
                    .resource(cr)
                    .create();
        }
        String name = "volcano-cronjob-example";
        await().atMost(Duration.ofSeconds(10)).until(() -> !commandsFor(name).isEmpty());
        CronJobCommand submit = commandsFor(name).getFirst();
        assertThat(submit.getRequestId()).startsWith("k8s:").endsWith(":submit");
        assertThat(submit.getCommand())
                .isInstanceOfSatisfying(
                        SubmitCronJob.class,
                        s -> assertThat(s.getManifest())
                                .contains("\"kind\":\"CronJob\"", "\"schedule\":\"*/5 * * * *\"", "\"uid\""));

        GenericKubernetesResource stored = client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                .inNamespace("default")
                .withName(name)
                .get();
        Instant scheduled = Instant.parse("2026-12-01T10:05:00Z");
        CronJobStatusRecord record = CronJobStatusRecord.newBuilder()
                .setNamespace("default")
                .setName(name)
                .setUid(stored.getMetadata().getUid())
                .setManifest("{}")
                .setStatus(new CronJobStatus(List.of(new CronJobActiveJob(name + "-29935325", "u1")), scheduled, null))
                .setEvents(List.of(
                        new CronJobEvent("Normal", "SuccessfulCreate", "Created job " + name + "-29935325", scheduled),
                        new CronJobEvent(
                                "Warning",
                                "ForbidConcurrent",
                                "Skipping job creation because another job is already running",
                                scheduled.plusSeconds(300))))
                .setTime(scheduled.plusSeconds(300))
                .build();
        CronJobStatusWriter writer = new CronJobStatusWriter(client, RETRY);
        assertThat(writer.apply(record)).isEqualTo(StatusSubresource.Outcome.WRITTEN);
        assertThat(writer.apply(record)).as("the same status again").isEqualTo(StatusSubresource.Outcome.UNCHANGED);
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                .inNamespace("default")
                .withName(name)
                .get()
                .getAdditionalProperties()
                .get("status");
        assertThat(status)
                .containsEntry("lastScheduleTime", "2026-12-01T10:05:00Z")
                .doesNotContainKey("lastSuccessfulTime");
        assertThat(status.get("active")).asList().singleElement().asString().contains(name + "-29935325", "Job");
        List<Event> events = client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .toList();
        assertThat(events)
                .extracting(Event::getReason)
                .containsExactlyInAnyOrder("SuccessfulCreate", "ForbidConcurrent");
        assertThat(events)
                .allSatisfy(e -> assertThat(e.getInvolvedObject().getKind()).isEqualTo("CronJob"));
        if (Kubectl.installed()) {
            assertThat(Kubectl.run(kubeconfig, "get", "cronjobs.batch.volcano.sh", "-n", "default"))
                    .contains(name);
        }

        // A change of the spec is sent again; a status write (ours) is not.
        GenericKubernetesResource changed = client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                .inNamespace("default")
                .withName(name)
                .get();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) changed.getAdditionalProperties().get("spec");
        spec.put("suspend", true);
        client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                .inNamespace("default")
                .resource(changed)
                .update();
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(name).size() == 2);
        assertThat(commandsFor(name).get(1).getCommand())
                .isInstanceOfSatisfying(
                        SubmitCronJob.class, s -> assertThat(s.getManifest()).contains("\"suspend\":true"));

        // A refusal of a command from the CR is a Warning Event on the CronJob, with the field's path.
        CommandResult refused = CommandResult.newBuilder()
                .setRequestId(commandsFor(name).get(1).getRequestId())
                .setNamespace("default")
                .setName(name)
                .setKind("SubmitCronJob")
                .setAccepted(false)
                .setViolations(List.of(new Violation(
                        "spec.schedule",
                        "schedule is not a valid cron expression: expected exactly 5 fields, found 4")))
                .setSender("k8s-bridge")
                .setTime(Instant.now())
                .build();
        assertThat(CommandEvents.Target.of(refused)).isEqualTo(CommandEvents.Target.CRON_JOB);
        new CommandResultReporter(client, RETRY).apply(refused);
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo("Rejected");
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("CronJob");
                    assertThat(e.getMessage()).startsWith("spec.schedule: schedule is not a valid cron expression");
                });

        client.genericKubernetesResources(VolcanoKinds.CRON_JOBS)
                .inNamespace("default")
                .withName(name)
                .delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(name).size() == 3);
        assertThat(commandsFor(name).get(2).getCommand()).isInstanceOf(DeleteCronJob.class);
    }
}
