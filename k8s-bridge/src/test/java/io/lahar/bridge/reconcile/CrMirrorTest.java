package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.webhook.AdmissionWebhook;
import io.lahar.bridge.webhook.KnownObjects;
import io.lahar.bridge.webhook.WebhookRegistration;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.UpdateJob;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Lahar object shown as its Volcano CR however it was submitted, against the embedded
 * cluster, with the CR watcher running on the same ledger as in the bridge: the mirror's own
 * creates, spec writes and deletes never come back as commands; a user's edit or delete of a
 * mirrored CR does. "Nothing came back" is read after a sentinel CR's command, which the watcher
 * sends after every event before it (one watch per kind, in order).
 */
class CrMirrorTest {

    private static final String NS = "default";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));
    private static final MirrorLedger LEDGER = new MirrorLedger();
    private static final ListSink sink = new ListSink();
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static VolcanoApiWatcher watcher;
    private static JobStatusWriter jobs;
    private static FlowStatusWriter flows;
    private static QueueStatusWriter queues;
    private static KnownObjects queueCache;
    private static AdmissionWebhook webhook;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
        client = cluster.client();
        // Volcano's Jobs webhook in place, as bin/start has it: the mirrors' own writes must pass it.
        queueCache = KnownObjects.watch(client);
        webhook = AdmissionWebhook.start(queueCache);
        WebhookRegistration.register(client, webhook);
        watcher = new VolcanoApiWatcher(client, sink, Clock.systemUTC(), 0, Optional.empty(), LEDGER).start();
        jobs = new JobStatusWriter(client, RETRY, LEDGER);
        flows = new FlowStatusWriter(client, RETRY, LEDGER);
        queues = new QueueStatusWriter(client, RETRY, LEDGER);
    }

    @AfterAll
    static void stop() {
        watcher.close();
        webhook.close();
        queueCache.close();
        cluster.close();
    }

    private static String name() {
        return "mirror" + NAMES.incrementAndGet();
    }

    @Test
    void aJobSubmittedOverKafkaIsShownAsItsCrAndTheMirrorsOwnWritesNeverLoop() {
        String job = name();
        assertThat(jobs.apply(status(job, "engine-" + job, 1, "Pending"))).isEqualTo(CrMirror.Outcome.CREATED);

        GenericKubernetesResource cr = get(VolcanoKinds.JOBS, job);
        assertThat(cr.getMetadata().getLabels())
                .containsEntry("team", "ml")
                .containsEntry(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
        assertThat(cr.getMetadata().getAnnotations()).containsEntry(Mirrors.MIRROR_OF, "engine-" + job);
        assertThat(cr.getMetadata().getUid()).isNotEqualTo("engine-" + job);
        assertThat(cr.get("spec", "queue").toString()).isEqualTo("default");
        assertThat(cr.get("status", "state", "phase").toString()).isEqualTo("Pending");
        assertThat(((Number) cr.get("status", "minAvailable")).intValue()).isEqualTo(1);

        // The engine accepted an update (over Kafka): the mirror's spec follows, and its status.
        assertThat(jobs.apply(status(job, "engine-" + job, 2, "Running"))).isEqualTo(CrMirror.Outcome.UPDATED);
        assertThat(jobs.apply(status(job, "engine-" + job, 2, "Running"))).isEqualTo(CrMirror.Outcome.UNCHANGED);
        cr = get(VolcanoKinds.JOBS, job);
        assertThat(replicas(cr)).isEqualTo(2);
        assertThat(cr.get("status", "state", "phase").toString()).isEqualTo("Running");

        awaitSentinelJob();
        assertThat(jobCommands(job))
                .as("the mirror's create and writes are no input")
                .isEmpty();

        // A user edits the mirrored CR: that is an update, its manifest without the mirror's marks.
        cr.setAdditionalProperty("spec", spec(3));
        client.genericKubernetesResources(VolcanoKinds.JOBS)
                .inNamespace(NS)
                .resource(cr)
                .update();
        await().atMost(Duration.ofSeconds(10)).until(() -> !jobCommands(job).isEmpty());
        assertThat(jobCommands(job).getFirst().getCommand())
                .isInstanceOfSatisfying(
                        UpdateJob.class,
                        u -> assertThat(u.getManifest())
                                .contains("\"replicas\":3")
                                .doesNotContain(Mirrors.MIRROR_OF)
                                .doesNotContain(Mirrors.SPEC_HASH));

        // The engine admitted it: the mirror writes the admitted spec, which is no new update.
        assertThat(jobs.apply(status(job, "engine-" + job, 3, "Running"))).isEqualTo(CrMirror.Outcome.UPDATED);
        // The job is deleted (its status tombstone): the CR goes, and no delete goes back.
        assertThat(jobs.deleted(NS + "/" + job)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(get(VolcanoKinds.JOBS, job)).isNull();
        awaitSentinelJob();
        assertThat(jobCommands(job)).hasSize(1);
    }

    @Test
    void aMirroredJobDeletedWithKubectlIsADeleteAndALateStatusDoesNotBringItBack() {
        String job = name();
        jobs.apply(status(job, "engine-" + job, 1, "Running"));

        client.genericKubernetesResources(VolcanoKinds.JOBS)
                .inNamespace(NS)
                .withName(job)
                .delete();

        await().atMost(Duration.ofSeconds(10)).until(() -> !jobCommands(job).isEmpty());
        assertThat(jobCommands(job))
                .singleElement()
                .satisfies(c -> assertThat(c.getCommand()).isInstanceOf(DeleteJob.class));
        assertThat(jobs.apply(status(job, "engine-" + job, 1, "Terminating")))
                .as("read before the tombstone that follows the delete")
                .isEqualTo(CrMirror.Outcome.SKIPPED);
        assertThat(get(VolcanoKinds.JOBS, job)).isNull();
        assertThat(jobs.deleted(NS + "/" + job)).isEqualTo(CrMirror.Outcome.ABSENT);
    }

    @Test
    void aUsersCrKeepsItsSpecTakesTheStatusAndGoesWithTheJob() {
        String job = name();
        GenericKubernetesResource cr = create(VolcanoKinds.JOBS, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s}
                spec:
                  tasks:
                  - name: worker
                    replicas: 1
                    template: {spec: {containers: [{name: w, image: busybox}]}}
                """.formatted(job));
        await().atMost(Duration.ofSeconds(10)).until(() -> !jobCommands(job).isEmpty());
        assertThat(jobCommands(job).getFirst().getCommand()).isInstanceOf(SubmitJob.class);

        // The admitted manifest has Volcano's defaults; the user's spec stays as applied.
        assertThat(jobs.apply(status(job, cr.getMetadata().getUid(), 1, "Running")))
                .isEqualTo(CrMirror.Outcome.UPDATED);
        GenericKubernetesResource stored = get(VolcanoKinds.JOBS, job);
        assertThat(Mirrors.isMirror(stored)).isFalse();
        assertThat(stored.<Object>get("spec", "queue")).isNull();
        assertThat(stored.get("status", "state", "phase").toString()).isEqualTo("Running");

        // Deleted over Kafka or the CLI: the user's CR goes too, and no delete goes back.
        assertThat(jobs.deleted(NS + "/" + job)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(get(VolcanoKinds.JOBS, job)).isNull();
        awaitSentinelJob();
        assertThat(jobCommands(job)).hasSize(1);
    }

    @Test
    void aNewUsersCrThatTheEngineHasNotAnsweredSurvivesTheTombstoneOfTheOldJob() {
        String job = name();
        create(VolcanoKinds.JOBS, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s}
                spec: {tasks: [{name: w, replicas: 1, template: {spec: {containers: [{name: w, image: busybox}]}}}]}
                """.formatted(job));

        assertThat(jobs.deleted(NS + "/" + job)).isEqualTo(CrMirror.Outcome.UNCHANGED);
        assertThat(get(VolcanoKinds.JOBS, job)).isNotNull();
    }

    @Test
    void aQueueCreatedOverKafkaIsShownAsItsCrAndOnlyAUsersEditGoesBack() {
        String queue = name();
        assertThat(queues.apply(queueRecord(queue, 2))).isEqualTo(CrMirror.Outcome.CREATED);
        GenericKubernetesResource cr = get(VolcanoKinds.QUEUES, queue);
        assertThat(((Number) cr.get("spec", "weight")).intValue()).isEqualTo(2);
        assertThat(cr.get("spec", "capability", "cpu").toString()).isEqualTo("4");
        assertThat(cr.get("status", "state").toString()).isEqualTo("Open");
        assertThat(queues.apply(queueRecord(queue, 2))).isEqualTo(CrMirror.Outcome.UNCHANGED);
        assertThat(queues.apply(queueRecord(queue, 3))).isEqualTo(CrMirror.Outcome.UPDATED);

        awaitSentinelQueue();
        assertThat(queueRecords(queue))
                .as("the mirror's create and writes are no input")
                .isEmpty();

        cr = get(VolcanoKinds.QUEUES, queue);
        cr.setAdditionalProperty("spec", Map.of("weight", 5, "reclaimable", true));
        client.genericKubernetesResources(VolcanoKinds.QUEUES).resource(cr).update();
        await().atMost(Duration.ofSeconds(10)).until(() -> !queueRecords(queue).isEmpty());
        assertThat(queueRecords(queue).getFirst().getWeight()).isEqualTo(5);

        assertThat(queues.deleted(queue)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(get(VolcanoKinds.QUEUES, queue)).isNull();
        awaitSentinelQueue();
        assertThat(sink.sent.stream()
                        .filter(s -> s.topic().equals(Topics.QUEUES.name())
                                && s.key().equals(queue)
                                && s.value() == null))
                .as("no tombstone for a CR the bridge deleted")
                .isEmpty();
    }

    @Test
    void jobFlowsAndJobTemplatesSubmittedOverKafkaAreShownAsTheirCrs() {
        String flow = name();
        String template = name();
        JobTemplate templateRecord = JobTemplate.newBuilder()
                .setNamespace(NS)
                .setName(template)
                .setUid("engine-" + template)
                .setLabels(Map.of("team", "ml"))
                .setSpec("{\"tasks\":[{\"name\":\"w\",\"replicas\":1}]}")
                .setJobDependsOnList(List.of(flow + "-" + template))
                .setTime(TestIntents.T0)
                .build();
        assertThat(flows.apply(templateRecord)).isEqualTo(CrMirror.Outcome.CREATED);
        GenericKubernetesResource storedTemplate = get(VolcanoKinds.JOB_TEMPLATES, template);
        assertThat(storedTemplate.<Object>get("status", "jobDependsOnList")).isEqualTo(List.of(flow + "-" + template));
        assertThat(storedTemplate.getMetadata().getLabels()).containsEntry("team", "ml");

        JobFlowStatusRecord flowRecord = JobFlowStatusRecord.newBuilder()
                .setNamespace(NS)
                .setName(flow)
                .setUid("engine-" + flow)
                .setManifest("{\"metadata\":{\"name\":\"" + flow + "\"},\"spec\":{\"jobRetainPolicy\":\"retain\","
                        + "\"flows\":[{\"name\":\"" + template + "\"}]}}")
                .setTime(TestIntents.T0)
                .setStatus(JobFlowStatus.newBuilder()
                        .setRunningJobs(List.of(flow + "-" + template))
                        .setState(new JobFlowState("Running"))
                        .build())
                .build();
        assertThat(flows.apply(flowRecord)).isEqualTo(CrMirror.Outcome.CREATED);
        GenericKubernetesResource storedFlow = get(VolcanoKinds.JOB_FLOWS, flow);
        assertThat(storedFlow.get("spec", "jobRetainPolicy").toString()).isEqualTo("retain");
        assertThat(storedFlow.get("status", "state", "phase").toString()).isEqualTo("Running");

        assertThat(flows.deleted(NS + "/" + flow)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(flows.templateDeleted(NS + "/" + template)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(get(VolcanoKinds.JOB_FLOWS, flow)).isNull();
        assertThat(get(VolcanoKinds.JOB_TEMPLATES, template)).isNull();

        // A sentinel JobTemplate applied after all of it: its submit is the last flow command.
        String sentinel = name();
        create(VolcanoKinds.JOB_TEMPLATES, """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata: {name: %s}
                spec: {tasks: [{name: w, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]}
                """.formatted(sentinel));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sink.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class).stream()
                        .anyMatch(c -> c.getName().equals(sentinel)));
        assertThat(sink.values(Topics.FLOW_COMMANDS.name(), FlowCommand.class))
                .as("the mirror's creates and deletes are no input")
                .noneMatch(c -> c.getName().equals(flow) || c.getName().equals(template));
    }

    @Test
    void aPodGroupStaysWhileItsJobExistsWithItsFinalPhaseAndGoesWithTheJob() {
        String job = name();
        String key = NS + "/" + job;
        PodGroupReconciler groups = new PodGroupReconciler(client, RETRY);
        jobs.apply(status(job, "engine-" + job, 1, "Running"));
        assertThat(groups.apply(key, podGroup(job, "Running"))).isEqualTo(PodGroupReconciler.Outcome.CREATED);

        // The engine forgets the gang when the job finishes; Volcano's PodGroup stays, Completed.
        assertThat(groups.apply(key, null)).isEqualTo(PodGroupReconciler.Outcome.UPDATED);
        GenericKubernetesResource kept = podGroupCr(job);
        assertThat(kept.get("status", "phase").toString()).isEqualTo("Completed");
        assertThat(((Number) kept.get("status", "running")).intValue())
                .as("its pods are done")
                .isZero();
        assertThat(groups.apply(key, null)).isEqualTo(PodGroupReconciler.Outcome.UNCHANGED);

        // The job is deleted: its status tombstone takes the pod group along.
        assertThat(jobs.deleted(key)).isEqualTo(CrMirror.Outcome.DELETED);
        assertThat(groups.jobDeleted(key)).isEqualTo(PodGroupReconciler.Outcome.DELETED);
        assertThat(podGroupCr(job)).isNull();
    }

    @Test
    void aGangThatNeverRanKeepsItsPhaseAndWithoutItsJobATombstoneDeletesIt() {
        String job = name();
        String key = NS + "/" + job;
        PodGroupReconciler groups = new PodGroupReconciler(client, RETRY);
        jobs.apply(status(job, "engine-" + job, 1, "Aborted"));
        groups.apply(key, podGroup(job, "Inqueue"));

        assertThat(groups.apply(key, null)).isEqualTo(PodGroupReconciler.Outcome.UNCHANGED);
        assertThat(podGroupCr(job).get("status", "phase").toString()).isEqualTo("Inqueue");

        jobs.deleted(key);
        assertThat(groups.apply(key, null))
                .as("the job's deletion read first: the pod group's tombstone deletes")
                .isEqualTo(PodGroupReconciler.Outcome.DELETED);
        assertThat(podGroupCr(job)).isNull();
    }

    private static PodGroup podGroup(String job, String phase) {
        return PodGroup.newBuilder()
                .setNamespace(NS)
                .setName(job + "-engine-" + job)
                .setJob(job)
                .setCreationTimestamp(TestIntents.T0)
                .setTime(TestIntents.T0)
                .setSpec(PodGroupSpec.newBuilder()
                        .setMinMember(1)
                        .setQueue("default")
                        .build())
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase(phase)
                        .setRunning("Running".equals(phase) ? 1 : 0)
                        .build())
                .build();
    }

    private static GenericKubernetesResource podGroupCr(String job) {
        return client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(NS)
                .withName(job + "-engine-" + job)
                .get();
    }

    @Test
    void theJobsTransitionsAreEventsThatKubectlDescribeFindsOnItsCr() {
        String job = name();
        String uid = "engine-" + job;
        jobs.apply(status(job, uid, 1, "Pending"));
        jobs.apply(status(job, uid, 1, "Running"));
        jobs.apply(status(job, uid, 1, "Running"));
        jobs.apply(status(job, uid, 1, "Completed"));
        GenericKubernetesResource cr = get(VolcanoKinds.JOBS, job);

        // kubectl describe's query: the involved object's name, namespace, kind and UID.
        var events = describedEvents(job, cr);
        assertThat(events)
                .extracting(io.fabric8.kubernetes.api.model.Event::getReason)
                .containsExactlyInAnyOrder("Pending", "Running", "Completed");
        assertThat(events)
                .filteredOn(e -> e.getReason().equals("Completed"))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).isEqualTo("Running → Completed"));
    }

    @Test
    void statusesFoldedWhileAWriteWasUnderWayWriteTheLatestAndKeepEveryTransitionsEvent() {
        String job = name();
        String uid = "engine-" + job;
        JobStatusWriter.Change folded = JobStatusWriter.Change.of(status(job, uid, 1, "Pending"))
                .then(JobStatusWriter.Change.of(status(job, uid, 1, "Running")))
                .then(JobStatusWriter.Change.of(status(job, uid, 1, "Running")))
                .then(JobStatusWriter.Change.of(status(job, uid, 1, "Completed")));

        assertThat(jobs.write(NS + "/" + job, folded)).isEqualTo(CrMirror.Outcome.CREATED);

        GenericKubernetesResource cr = get(VolcanoKinds.JOBS, job);
        assertThat(cr.get("status", "state", "phase").toString()).isEqualTo("Completed");
        assertThat(describedEvents(job, cr))
                .extracting(io.fabric8.kubernetes.api.model.Event::getMessage)
                .containsExactlyInAnyOrder("Pending", "Pending → Running", "Running → Completed");
    }

    @Test
    void aTombstoneFoldedAfterStatusesCancelsThemAndAStatusAfterItMakesANewCr() {
        String job = name();
        String uid = "engine-" + job;
        jobs.apply(status(job, uid, 1, "Running"));
        String oldCr = get(VolcanoKinds.JOBS, job).getMetadata().getUid();

        JobStatusWriter.Change gone =
                JobStatusWriter.Change.of(status(job, uid, 1, "Completed")).then(JobStatusWriter.Change.deletion());
        assertThat(gone.last()).as("the deletion cancels the status before it").isNull();
        assertThat(jobs.write(NS + "/" + job, gone)).isEqualTo(CrMirror.Outcome.DELETED);
        await().atMost(Duration.ofSeconds(10)).until(() -> get(VolcanoKinds.JOBS, job) == null);

        String next = "engine2-" + job;
        JobStatusWriter.Change again =
                JobStatusWriter.Change.deletion().then(JobStatusWriter.Change.of(status(job, next, 1, "Pending")));
        assertThat(jobs.write(NS + "/" + job, again)).isEqualTo(CrMirror.Outcome.CREATED);
        GenericKubernetesResource cr = get(VolcanoKinds.JOBS, job);
        assertThat(cr.getMetadata().getUid()).isNotEqualTo(oldCr);
        assertThat(cr.getMetadata().getAnnotations()).containsEntry(Mirrors.MIRROR_OF, next);
    }

    private static List<io.fabric8.kubernetes.api.model.Event> describedEvents(
            String job, GenericKubernetesResource cr) {
        return client.v1()
                .events()
                .inNamespace(NS)
                .withField("involvedObject.name", job)
                .withField("involvedObject.namespace", NS)
                .withField("involvedObject.kind", "Job")
                .withField("involvedObject.uid", cr.getMetadata().getUid())
                .list()
                .getItems();
    }

    private static JobStatusRecord status(String job, String uid, int replicas, String phase) {
        String manifest = "{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\""
                + job + "\",\"namespace\":\"" + NS + "\",\"uid\":\"" + uid
                + "\",\"labels\":{\"team\":\"ml\"}},\"spec\":" + K8S.asJson(spec(replicas)) + "}";
        return JobStatusRecord.newBuilder()
                .setNamespace(NS)
                .setName(job)
                .setUid(uid)
                .setQueue("default")
                .setManifest(manifest)
                .setTime(TestIntents.T0)
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder().setPhase(phase).build())
                        .setMinAvailable(1)
                        .build())
                .build();
    }

    private static Map<String, Object> spec(int replicas) {
        return Map.of(
                "queue",
                "default",
                "minAvailable",
                1,
                "tasks",
                List.of(Map.of(
                        "name",
                        "worker",
                        "replicas",
                        replicas,
                        "template",
                        Map.of("spec", Map.of("containers", List.of(Map.of("name", "w", "image", "busybox")))))));
    }

    @SuppressWarnings("unchecked")
    private static int replicas(GenericKubernetesResource cr) {
        List<Map<String, Object>> tasks = (List<Map<String, Object>>) cr.get("spec", "tasks");
        return ((Number) tasks.getFirst().get("replicas")).intValue();
    }

    private static Queue queueRecord(String name, int weight) {
        return Queue.newBuilder()
                .setName(name)
                .setWeight(weight)
                .setCapability(Map.of("cpu", "4"))
                .setState(QueueState.Open)
                .setTime(TestIntents.T0)
                .build();
    }

    private static List<JobCommand> jobCommands(String job) {
        return sink.values(Topics.JOB_COMMANDS.name(), JobCommand.class).stream()
                .filter(c -> c.getName().equals(job))
                .toList();
    }

    private static List<Queue> queueRecords(String queue) {
        return sink.values(Topics.QUEUES.name(), Queue.class).stream()
                .filter(q -> q.getName().equals(queue))
                .toList();
    }

    private static void awaitSentinelJob() {
        String sentinel = name();
        create(VolcanoKinds.JOBS, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: %s}
                spec: {tasks: [{name: w, replicas: 1, template: {spec: {containers: [{name: w, image: busybox}]}}}]}
                """.formatted(sentinel));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !jobCommands(sentinel).isEmpty());
    }

    private static void awaitSentinelQueue() {
        String sentinel = name();
        create(VolcanoKinds.QUEUES, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: %s}
                spec: {weight: 1}
                """.formatted(sentinel));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !queueRecords(sentinel).isEmpty());
    }

    private static GenericKubernetesResource get(ResourceDefinitionContext kind, String name) {
        var resources = client.genericKubernetesResources(kind);
        return kind.isNamespaceScoped()
                ? resources.inNamespace(NS).withName(name).get()
                : resources.withName(name).get();
    }

    private static GenericKubernetesResource create(ResourceDefinitionContext kind, String yaml) {
        var resources = client.genericKubernetesResources(kind);
        GenericKubernetesResource cr = K8S.unmarshal(yaml, GenericKubernetesResource.class);
        return kind.isNamespaceScoped()
                ? resources.inNamespace(NS).resource(cr).create()
                : resources.resource(cr).create();
    }
}
