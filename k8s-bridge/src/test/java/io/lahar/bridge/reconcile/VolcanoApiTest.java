package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.PluginObjects;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.DeleteObject;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsureService;
import io.lahar.schema.EnsureSshSecret;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Node;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.ServicePort;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.UpdateJob;
import io.lahar.schema.Violation;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Volcano's API (Job, Command, Queue, PodGroup CRs), plugin objects and nodes against the embedded cluster. */
class VolcanoApiTest {

    private static final String NS = "default";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static final ListSink sink = new ListSink();
    private static VolcanoApiWatcher watcher;
    private static final MirrorLedger LEDGER = new MirrorLedger();

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("2x{cpu=4,memory=8Gi}")));
        client = cluster.client();
        watcher = new VolcanoApiWatcher(client, sink, Clock.systemUTC(), 0, Optional.empty(), LEDGER).start();
    }

    @AfterAll
    static void stop() {
        watcher.close();
        cluster.close();
    }

    private static String name() {
        return "vc" + NAMES.incrementAndGet();
    }

    private static GenericKubernetesResource create(
            io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext kind, String yaml) {
        var resources = client.genericKubernetesResources(kind);
        GenericKubernetesResource cr = K8S.unmarshal(yaml, GenericKubernetesResource.class);
        return kind.isNamespaceScoped()
                ? resources.inNamespace(NS).resource(cr).create()
                : resources.resource(cr).create();
    }

    private static List<JobCommand> commandsFor(String job) {
        return sink.values(Topics.JOB_COMMANDS.name(), JobCommand.class).stream()
                .filter(c -> c.getName().equals(job))
                .toList();
    }

    @Test
    void aJobCreatedThroughTheApiBecomesASubmitAndItsStatusAppearsOnTheCr() {
        String job = name();
        GenericKubernetesResource cr = create(VolcanoKinds.JOBS, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s}
                spec:
                  minAvailable: 1
                  tasks:
                  - name: worker
                    replicas: 1
                    template: {spec: {containers: [{name: w, image: busybox}]}}
                """.formatted(job));

        await().atMost(Duration.ofSeconds(10)).until(() -> !commandsFor(job).isEmpty());
        JobCommand submit = commandsFor(job).getFirst();
        assertThat(submit.getCommand()).isInstanceOf(SubmitJob.class);
        assertThat(submit.getRequestId()).isEqualTo("k8s:" + cr.getMetadata().getUid() + ":submit");
        assertThat(((SubmitJob) submit.getCommand()).getManifest()).contains("\"replicas\":1");

        JobStatusRecord status = JobStatusRecord.newBuilder()
                .setNamespace(NS)
                .setName(job)
                .setUid(cr.getMetadata().getUid())
                .setQueue("default")
                .setManifest("{}")
                .setTime(TestIntents.T0)
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder().setPhase("Running").build())
                        .setMinAvailable(1)
                        .setRunning(1)
                        .build())
                .build();
        JobStatusWriter writer = new JobStatusWriter(client, RETRY, LEDGER);
        assertThat(writer.apply(status)).isEqualTo(CrMirror.Outcome.UPDATED);
        assertThat(writer.apply(status)).isEqualTo(CrMirror.Outcome.UNCHANGED);

        GenericKubernetesResource stored = client.genericKubernetesResources(VolcanoKinds.JOBS)
                .inNamespace(NS)
                .withName(job)
                .get();
        assertThat(stored.get("status", "state", "phase").toString()).isEqualTo("Running");
        assertThat(((Number) stored.get("status", "running")).intValue()).isEqualTo(1);
        // Our own status write is no spec change: no update command follows.
        assertThat(commandsFor(job)).hasSize(1);

        stored.setAdditionalProperty(
                "spec",
                Map.of(
                        "minAvailable",
                        1,
                        "tasks",
                        List.of(Map.of(
                                "name",
                                "worker",
                                "replicas",
                                3,
                                "template",
                                Map.of(
                                        "spec",
                                        Map.of("containers", List.of(Map.of("name", "w", "image", "busybox"))))))));
        client.genericKubernetesResources(VolcanoKinds.JOBS)
                .inNamespace(NS)
                .resource(stored)
                .update();
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(job).size() == 2);
        assertThat(commandsFor(job).get(1).getCommand())
                .isInstanceOfSatisfying(
                        UpdateJob.class, u -> assertThat(u.getManifest()).contains("\"replicas\":3"));

        client.genericKubernetesResources(VolcanoKinds.JOBS)
                .inNamespace(NS)
                .withName(job)
                .delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(job).size() == 3);
        assertThat(commandsFor(job).getLast().getCommand()).isInstanceOf(DeleteJob.class);
        assertThat(writer.apply(status))
                .as("a status read late does not bring back a CR deleted in the cluster")
                .isEqualTo(CrMirror.Outcome.SKIPPED);
    }

    @Test
    void commandCrsSuspendAndResumeAndAreConsumed() {
        String job = name();
        create(VolcanoKinds.COMMANDS, """
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: %s-abortjob}
                action: AbortJob
                target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: %s, uid: x}
                """.formatted(job, job));
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(job).size() == 1);
        create(VolcanoKinds.COMMANDS, """
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: %s-resumejob}
                action: ResumeJob
                target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: %s, uid: x}
                """.formatted(job, job));
        await().atMost(Duration.ofSeconds(10)).until(() -> commandsFor(job).size() == 2);

        assertThat(commandsFor(job))
                .extracting(c -> ((JobActionCommand) c.getCommand()).getAction())
                .containsExactly(JobAction.AbortJob, JobAction.ResumeJob);
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        client
                                .genericKubernetesResources(VolcanoKinds.COMMANDS)
                                .inNamespace(NS)
                                .list()
                                .getItems()
                                .stream()
                                .noneMatch(c -> c.getMetadata().getName().startsWith(job + "-")));
    }

    @Test
    void queueCrsFeedTheQueuesTopicWithTombstones() {
        String queue = name();
        create(VolcanoKinds.QUEUES, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: %s}
                spec: {weight: 3}
                """.formatted(queue));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sink.sent.stream()
                        .anyMatch(s -> s.topic().equals(Topics.QUEUES.name())
                                && s.key().equals(queue)
                                && s.value() != null));
        Queue record = sink.values(Topics.QUEUES.name(), Queue.class).stream()
                .filter(q -> q.getName().equals(queue))
                .findFirst()
                .orElseThrow();
        assertThat(record.getWeight()).isEqualTo(3);
        // Volcano's default queue is there from the start.
        assertThat(sink.values(Topics.QUEUES.name(), Queue.class))
                .anyMatch(q -> q.getName().equals("default"));

        client.genericKubernetesResources(VolcanoKinds.QUEUES).withName(queue).delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sink.sent.stream()
                        .anyMatch(s -> s.topic().equals(Topics.QUEUES.name())
                                && s.key().equals(queue)
                                && s.value() == null));
    }

    @Test
    void queueStatusLandsOnTheQueueCrWithoutEchoingBackIntoTheQueuesTopic() {
        String queue = name();
        create(VolcanoKinds.QUEUES, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: %s}
                spec: {weight: 2}
                """.formatted(queue));
        await().atMost(Duration.ofSeconds(10)).until(() -> queueRecords(queue).size() == 1);

        QueueStatusWriter writer = new QueueStatusWriter(client, RETRY);
        QueueStatus status = QueueStatus.newBuilder()
                .setName(queue)
                .setState(QueueState.Open)
                .setPending(1)
                .setInqueue(2)
                .setRunning(3)
                .setCompleted(4)
                .setUnknown(0)
                .setAllocated(Map.of("cpu", "6", "memory", "12Gi"))
                .setDeserved(Map.of("cpu", "8"))
                .setTime(TestIntents.T0)
                .build();
        assertThat(writer.apply(status)).isEqualTo(StatusSubresource.Outcome.WRITTEN);
        assertThat(writer.apply(status)).isEqualTo(StatusSubresource.Outcome.UNCHANGED);
        GenericKubernetesResource cr = client.genericKubernetesResources(VolcanoKinds.QUEUES)
                .withName(queue)
                .get();
        assertThat(cr.<Object>get("status", "state")).isEqualTo("Open");
        assertThat(((Number) cr.get("status", "inqueue")).intValue()).isEqualTo(2);
        assertThat(((Number) cr.get("status", "running")).intValue()).isEqualTo(3);
        assertThat(((Number) cr.get("status", "completed")).intValue()).isEqualTo(4);
        assertThat(cr.<Object>get("status", "allocated", "memory")).isEqualTo("12Gi");
        assertThat(cr.<Map<String, Object>>get("status")).doesNotContainKey("deserved");

        // Closing the queue is a change the scheduler must hear of; the counts written above were not.
        assertThat(writer.apply(QueueStatus.newBuilder(status)
                        .setState(QueueState.Closed)
                        .build()))
                .isEqualTo(StatusSubresource.Outcome.WRITTEN);
        await().atMost(Duration.ofSeconds(10)).until(() -> queueRecords(queue).size() == 2);
        assertThat(queueRecords(queue)).extracting(Queue::getState).containsExactly(QueueState.Open, QueueState.Closed);
        assertThat(new QueueStatusWriter(client, RETRY)
                        .apply(QueueStatus.newBuilder(status)
                                .setName(queue + "-none")
                                .build()))
                .isEqualTo(StatusSubresource.Outcome.NO_CR);
    }

    private static List<Queue> queueRecords(String queue) {
        return sink.values(Topics.QUEUES.name(), Queue.class).stream()
                .filter(q -> q.getName().equals(queue))
                .toList();
    }

    @Test
    void podGroupRecordsBecomeCrsWithStatusAndWithoutAJobCrTombstonesDeleteThem() {
        String job = name();
        PodGroupReconciler reconciler = new PodGroupReconciler(client, RETRY);
        PodGroup.Builder group = PodGroup.newBuilder()
                .setNamespace(NS)
                .setName(job)
                .setJob(job)
                .setCreationTimestamp(TestIntents.T0)
                .setTime(TestIntents.T0)
                .setSpec(PodGroupSpec.newBuilder()
                        .setMinMember(2)
                        .setQueue("default")
                        .build())
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase("Pending")
                        .setRunning(0)
                        .setSucceeded(0)
                        .setFailed(0)
                        .build());
        String key = Topics.jobKey(NS, job);

        assertThat(reconciler.apply(key, group.build())).isEqualTo(PodGroupReconciler.Outcome.CREATED);
        assertThat(reconciler.apply(key, group.build())).isEqualTo(PodGroupReconciler.Outcome.UNCHANGED);
        group.setStatus(PodGroupStatus.newBuilder()
                .setPhase("Running")
                .setRunning(2)
                .setSucceeded(0)
                .setFailed(0)
                .build());
        assertThat(reconciler.apply(key, group.build())).isEqualTo(PodGroupReconciler.Outcome.UPDATED);

        GenericKubernetesResource cr = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(NS)
                .withName(job)
                .get();
        assertThat(cr.get("status", "phase").toString()).isEqualTo("Running");
        assertThat(((Number) cr.get("spec", "minMember")).intValue()).isEqualTo(2);

        assertThat(reconciler.apply(key, null)).isEqualTo(PodGroupReconciler.Outcome.DELETED);
        assertThat(client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                        .inNamespace(NS)
                        .withName(job)
                        .get())
                .isNull();
        assertThat(reconciler.apply(key, null)).isEqualTo(PodGroupReconciler.Outcome.ABSENT);
    }

    @Test
    void pluginObjectsAreEnsuredAndTheSshKeyStaysStable() {
        String job = name();
        PodIntentReconciler reconciler =
                new PodIntentReconciler(client, RETRY, new EngineDeletions(), SshKeyPair::generate);
        PodIntent.Builder base =
                PodIntent.newBuilder().setNamespace(NS).setJob(job).setTime(TestIntents.T0);

        PodIntent svc = base.setIntent(EnsureService.newBuilder()
                        .setName(job)
                        .setSelector(Map.of("volcano.sh/job-name", job))
                        .setPorts(List.of(ServicePort.newBuilder()
                                .setName("ssh")
                                .setPort(22)
                                .build()))
                        .build())
                .build();
        assertThat(reconciler.apply(svc)).isEqualTo(PodIntentReconciler.Outcome.CREATED);
        assertThat(reconciler.apply(svc)).isEqualTo(PodIntentReconciler.Outcome.EXISTS);
        var service = client.services().inNamespace(NS).withName(job).get();
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getPublishNotReadyAddresses()).isTrue();
        // The ray plugin's head Service, as Volcano's: a cluster IP, ready pods only.
        PodIntent head = base.setIntent(EnsureService.newBuilder()
                        .setName(job + "-head-svc")
                        .setHeadless(false)
                        .setSelector(Map.of("volcano.sh/job-name", job, "volcano.sh/task-spec", "head"))
                        .setPorts(List.of(ServicePort.newBuilder()
                                .setName("gcs")
                                .setPort(6379)
                                .build()))
                        .build())
                .build();
        assertThat(reconciler.apply(head)).isEqualTo(PodIntentReconciler.Outcome.CREATED);
        var headService =
                client.services().inNamespace(NS).withName(job + "-head-svc").get();
        assertThat(headService.getSpec().getClusterIP()).isNotEqualTo("None");
        assertThat(headService.getSpec().getPublishNotReadyAddresses()).isNotEqualTo(Boolean.TRUE);
        assertThat(headService.getSpec().getPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.getTargetPort().getIntVal()).isEqualTo(6379));

        PodIntent hosts1 = base.setIntent(EnsureConfigMap.newBuilder()
                        .setName(job + "-svc")
                        .setData(Map.of("worker.host", "a\n"))
                        .build())
                .build();
        PodIntent hosts2 = base.setIntent(EnsureConfigMap.newBuilder()
                        .setName(job + "-svc")
                        .setData(Map.of("worker.host", "a\nb\n"))
                        .build())
                .build();
        assertThat(reconciler.apply(hosts1)).isEqualTo(PodIntentReconciler.Outcome.CREATED);
        assertThat(reconciler.apply(hosts2)).isEqualTo(PodIntentReconciler.Outcome.ENSURED);
        assertThat(client.configMaps()
                        .inNamespace(NS)
                        .withName(job + "-svc")
                        .get()
                        .getData())
                .containsEntry("worker.host", "a\nb\n");

        PodIntent ssh = base.setIntent(EnsureSshSecret.newBuilder()
                        .setName(job + "-ssh")
                        .setData(Map.of("config", "Host *"))
                        .build())
                .build();
        assertThat(reconciler.apply(ssh)).isEqualTo(PodIntentReconciler.Outcome.CREATED);
        var secret = client.secrets().inNamespace(NS).withName(job + "-ssh").get();
        assertThat(secret.getData())
                .containsKeys(
                        PluginObjects.PRIVATE_KEY, PluginObjects.PUBLIC_KEY, PluginObjects.AUTHORIZED_KEYS, "config");
        assertThat(reconciler.apply(ssh)).isEqualTo(PodIntentReconciler.Outcome.EXISTS);
        assertThat(client.secrets()
                        .inNamespace(NS)
                        .withName(job + "-ssh")
                        .get()
                        .getData()
                        .get(PluginObjects.PRIVATE_KEY))
                .isEqualTo(secret.getData().get(PluginObjects.PRIVATE_KEY));

        PodIntent drop = base.setIntent(DeleteObject.newBuilder()
                        .setKind("Secret")
                        .setName(job + "-ssh")
                        .setReason("JobDeleted")
                        .build())
                .build();
        assertThat(reconciler.apply(drop)).isEqualTo(PodIntentReconciler.Outcome.DELETED);
        assertThat(reconciler.apply(drop)).isEqualTo(PodIntentReconciler.Outcome.ABSENT);
    }

    @Test
    void aRejectionOfACrsCommandIsAWarningEventOnTheJob() {
        String job = name();
        CommandResultReporter reporter = new CommandResultReporter(client, RETRY);
        CommandResult rejected = CommandResult.newBuilder()
                .setRequestId("k8s:abc:submit")
                .setNamespace(NS)
                .setName(job)
                .setKind("SubmitJob")
                .setAccepted(false)
                .setTime(TestIntents.T0)
                .setSender("k8s-bridge")
                .setViolations(List.of(
                        new Violation("spec.tasks[0].replicas", "must be at least 0"),
                        new Violation("spec.queue", "queue \"nope\" does not exist")))
                .build();

        assertThat(reporter.apply(rejected)).isEqualTo(CommandResultReporter.Outcome.REPORTED);
        assertThat(reporter.apply(rejected)).isEqualTo(CommandResultReporter.Outcome.ALREADY_REPORTED);
        var events = client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> job.equals(e.getInvolvedObject().getName()))
                .toList();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Rejected");
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("Job");
            assertThat(e.getMessage())
                    .contains("spec.tasks[0].replicas: must be at least 0")
                    .contains("spec.queue: queue");
        });

        // A refusal of the CLI's (or any producer's) command is shown too; its acceptances are not.
        CommandResult fromCli =
                CommandResult.newBuilder(rejected).setRequestId("3f2a-cli").build();
        assertThat(reporter.apply(fromCli)).isEqualTo(CommandResultReporter.Outcome.REPORTED);
        assertThat(reporter.apply(CommandResult.newBuilder(fromCli)
                        .setRequestId("3f2b-cli")
                        .setAccepted(true)
                        .setViolations(List.of())
                        .build()))
                .isEqualTo(CommandResultReporter.Outcome.NOT_OURS);
        assertThat(client.v1().events().inNamespace(NS).list().getItems().stream()
                        .filter(e -> job.equals(e.getInvolvedObject().getName())))
                .hasSize(2);
    }

    @Test
    void nodesBecomeRecordsAndARemovedNodeATombstone() {
        ListSink nodes = new ListSink();
        try (NodeWatcher watcher = new NodeWatcher(client, nodes, Clock.systemUTC(), 0).start()) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> nodes.values(Topics.NODES.name(), Node.class).size() >= 2);
            assertThat(nodes.values(Topics.NODES.name(), Node.class)).anySatisfy(n -> {
                assertThat(n.getName()).isEqualTo("node-0");
                assertThat(n.getAllocatable()).containsEntry("cpu", "4");
                assertThat(n.getReady()).isTrue();
            });
            cluster.nodes().delete("node-1");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> nodes.sent.stream().anyMatch(s -> s.key().equals("node-1") && s.value() == null));
        }
    }
}
