package io.lahar.bridge.reconcile;

import static io.lahar.bridge.reconcile.DecisionReconciler.Outcome.ALREADY_BOUND;
import static io.lahar.bridge.reconcile.DecisionReconciler.Outcome.BOUND;
import static io.lahar.bridge.reconcile.PodIntentReconciler.Outcome.CREATED;
import static io.lahar.bridge.reconcile.PodIntentReconciler.Outcome.DELETED;
import static io.lahar.bridge.reconcile.PodIntentReconciler.Outcome.EXISTS;
import static io.lahar.bridge.reconcile.PodIntentReconciler.Outcome.STALE;
import static io.lahar.bridge.reconcile.PodIntentReconciler.Outcome.WAITING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.Pods;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.job.plugins.ObjectKind;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.Bind;
import io.lahar.schema.EnsureNetworkPolicy;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.Evict;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pod intents and scheduler decisions against the embedded cluster, driven with records directly. */
class PodReconcilersTest {

    private static final String NS = "default";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static final EngineDeletions deletions = new EngineDeletions();
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                .withNodes(NodeSpec.parse("2x{cpu=8,memory=32Gi}"))
                .withTimeScale(0.1));
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static String job() {
        return "job" + NAMES.incrementAndGet();
    }

    private static PodIntentReconciler intents() {
        return new PodIntentReconciler(client, RETRY, deletions, SshKeyPair::generate);
    }

    private static List<Pod> podsOf(String job) {
        return client.pods()
                .inNamespace(NS)
                .withLabel(PodLabels.JOB_NAME, job)
                .list()
                .getItems();
    }

    static SchedulerDecision bind(String job, String pod, String node, long epoch, int version) {
        return SchedulerDecision.newBuilder()
                .setNamespace(NS)
                .setJob(job)
                .setPodGroup(job)
                .setEpoch(epoch)
                .setTime(TestIntents.T0)
                .setDecision(Bind.newBuilder()
                        .setPod(pod)
                        .setNode(node)
                        .setAction("allocate")
                        .setJobVersion(version)
                        .build())
                .build();
    }

    @Test
    void aRedeliveredIntentNeverMakesASecondPod() {
        String job = job();
        PodIntent intent = TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600"));
        PodIntentReconciler reconciler = intents();

        assertThat(reconciler.apply(intent)).isEqualTo(CREATED);
        String uid = podsOf(job).getFirst().getMetadata().getUid();
        assertThat(reconciler.apply(intent)).isEqualTo(EXISTS);
        // A second bridge instance (or a restarted one) sees the same intent.
        assertThat(intents().apply(intent)).isEqualTo(EXISTS);

        assertThat(podsOf(job))
                .singleElement()
                .satisfies(p -> assertThat(p.getMetadata().getUid()).isEqualTo(uid));
    }

    @Test
    void pluginObjectsOfEveryKindTheEngineReleasesAreDeletedIdempotently() {
        String job = job();
        client.network()
                .networkPolicies()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withName(job)
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build())
                .create();
        client.configMaps()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(job)
                        .withNamespace(NS)
                        .endMetadata()
                        .build())
                .create();
        client.secrets()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName(job)
                        .withNamespace(NS)
                        .endMetadata()
                        .build())
                .create();
        PodIntentReconciler reconciler = intents();
        List<String> kinds = new java.util.ArrayList<>(List.of(ObjectKind.PERSISTENT_VOLUME_CLAIM.kind()));
        JobPluginRegistry.defaults().objectKinds().forEach(k -> kinds.add(k.kind()));
        assertThat(kinds).contains("NetworkPolicy", "Service", "ConfigMap", "Secret");
        for (String kind : kinds) {
            PodIntent release = release(job, kind, job);
            reconciler.apply(release);
            assertThat(reconciler.apply(release)).isEqualTo(PodIntentReconciler.Outcome.ABSENT);
        }
        assertThat(client.network()
                        .networkPolicies()
                        .inNamespace(NS)
                        .withName(job)
                        .get())
                .isNull();
        assertThat(client.configMaps().inNamespace(NS).withName(job).get()).isNull();
        assertThat(client.secrets().inNamespace(NS).withName(job).get()).isNull();
    }

    private static PodIntent intent(String job, Object body) {
        return PodIntent.newBuilder()
                .setNamespace(NS)
                .setJob(job)
                .setJobUid("uid-" + job)
                .setTime(TestIntents.T0)
                .setIntent(body)
                .build();
    }

    private static PodIntent release(String job, String kind, String name) {
        return intent(
                job,
                io.lahar.schema.DeleteObject.newBuilder()
                        .setKind(kind)
                        .setName(name)
                        .setReason("JobDeleted")
                        .build());
    }

    @Test
    void theSvcPluginsNetworkPolicyAndAnInlineVolumesClaimAreCreatedOnceAndReleased() {
        String job = job();
        Map<String, String> selector = Map.of(PodLabels.JOB_NAME, job, PodLabels.JOB_NAMESPACE, NS);
        PodIntent policy = intent(
                job,
                EnsureNetworkPolicy.newBuilder()
                        .setName(job)
                        .setLabels(selector)
                        .setPodSelector(selector)
                        .setIngressFrom(List.of(selector))
                        .build());
        PodIntent claim = intent(
                job,
                EnsurePersistentVolumeClaim.newBuilder()
                        .setName(job + "-volume-0")
                        .setLabels(selector)
                        .setSpec("{\"accessModes\":[\"ReadWriteOnce\"],\"storageClassName\":\"standard\","
                                + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}")
                        .build());
        PodIntentReconciler reconciler = intents();

        assertThat(reconciler.apply(policy)).isEqualTo(CREATED);
        assertThat(reconciler.apply(policy)).isEqualTo(EXISTS);
        assertThat(reconciler.apply(claim)).isEqualTo(CREATED);
        assertThat(intents().apply(claim)).isEqualTo(EXISTS);

        NetworkPolicy np =
                client.network().networkPolicies().inNamespace(NS).withName(job).get();
        assertThat(np.getSpec().getPodSelector().getMatchLabels()).isEqualTo(selector);
        assertThat(np.getSpec().getIngress())
                .singleElement()
                .satisfies(rule -> assertThat(rule.getFrom())
                        .singleElement()
                        .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                                .isEqualTo(selector)));
        assertThat(np.getSpec().getPolicyTypes()).containsExactly("Ingress");
        assertThat(np.getMetadata().getLabels()).containsEntry(PodLabels.JOB_NAME, job);
        PersistentVolumeClaim pvc = client.persistentVolumeClaims()
                .inNamespace(NS)
                .withName(job + "-volume-0")
                .get();
        assertThat(pvc.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
        assertThat(pvc.getSpec().getStorageClassName()).isEqualTo("standard");
        assertThat(pvc.getSpec().getResources().getRequests().get("storage").toString())
                .isEqualTo("1Gi");

        for (String kind : List.of("NetworkPolicy", "PersistentVolumeClaim")) {
            String name = kind.equals("NetworkPolicy") ? job : job + "-volume-0";
            assertThat(reconciler.apply(release(job, kind, name))).as(kind).isEqualTo(DELETED);
        }
        assertThat(client.network()
                        .networkPolicies()
                        .inNamespace(NS)
                        .withName(job)
                        .get())
                .isNull();
        assertThat(client.persistentVolumeClaims()
                        .inNamespace(NS)
                        .withName(job + "-volume-0")
                        .get())
                .isNull();
    }

    @Test
    void aClaimWhoseSpecIsNotAPersistentVolumeClaimSpecIsRefusedNamingIt() {
        String job = job();
        PodIntent claim = intent(
                job,
                EnsurePersistentVolumeClaim.newBuilder()
                        .setName(job + "-volume-0")
                        .setSpec("{\"accessModes\": 7")
                        .build());

        assertThatThrownBy(() -> intents().apply(claim))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("intent.spec: not a PersistentVolumeClaimSpec of claim " + job + "-volume-0");
    }

    @Test
    void aKindNoPluginDeclaresIsRefusedNamingTheKnownOnes() {
        String job = job();
        PodIntent release = release(job, "Deployment", job);
        assertThatThrownBy(() -> intents().apply(release))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "intent.kind: \"Deployment\" is not one of ConfigMap, NetworkPolicy, PersistentVolumeClaim, Secret, Service");
    }

    @Test
    void aDeleteSeenBeforeItsCreateIsNeverResurrected() {
        String job = job();
        PodIntentReconciler reconciler = intents();
        String pod = job + "-worker-0";

        assertThat(reconciler.apply(TestIntents.delete(NS, job, pod, 1))).isEqualTo(PodIntentReconciler.Outcome.ABSENT);
        assertThat(reconciler.apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 1"))))
                .isEqualTo(STALE);
        assertThat(podsOf(job)).isEmpty();

        // The next version's create is a new pod.
        assertThat(reconciler.apply(TestIntents.create(NS, job, "worker", 0, 2, TestIntents.template("sleep 1"))))
                .isEqualTo(CREATED);
        assertThat(podsOf(job))
                .singleElement()
                .satisfies(p -> assertThat(Pods.jobVersion(p)).isEqualTo(2));
    }

    @Test
    void aRestartedPodWaitsForItsPredecessorsDeletion() {
        String job = job();
        PodIntentReconciler reconciler = intents();
        String template = TestIntents.template("sleep 600");
        assertThat(reconciler.apply(TestIntents.create(NS, job, "worker", 0, 1, template)))
                .isEqualTo(CREATED);
        String oldUid = podsOf(job).getFirst().getMetadata().getUid();

        // The create of version 2 overtakes the delete of version 1.
        assertThat(reconciler.apply(TestIntents.create(NS, job, "worker", 0, 2, template)))
                .isEqualTo(WAITING);
        assertThat(reconciler.pendingCount()).isEqualTo(1);
        assertThat(reconciler.apply(TestIntents.delete(NS, job, job + "-worker-0", 1)))
                .isEqualTo(DELETED);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            reconciler.retryPending();
            assertThat(podsOf(job)).singleElement().satisfies(p -> {
                assertThat(p.getMetadata().getUid()).isNotEqualTo(oldUid);
                assertThat(Pods.jobVersion(p)).isEqualTo(2);
            });
        });
        assertThat(reconciler.pendingCount()).isZero();
        assertThat(deletions.consume(oldUid))
                .as("the deletion is recorded as the engine's")
                .isTrue();
    }

    @Test
    void bindingsBindAndARedeliveredBindIsHarmless() {
        String job = job();
        intents().apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600")));
        DecisionReconciler decisions = new DecisionReconciler(client, RETRY);

        assertThat(decisions.apply(bind(job, job + "-worker-0", "node-1", 1, 1)))
                .isEqualTo(BOUND);
        assertThat(decisions.apply(bind(job, job + "-worker-0", "node-1", 1, 1)))
                .isEqualTo(ALREADY_BOUND);

        Pod pod = client.pods().inNamespace(NS).withName(job + "-worker-0").get();
        assertThat(pod.getSpec().getNodeName()).isEqualTo("node-1");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "Running"
                        .equals(client.pods()
                                .inNamespace(NS)
                                .withName(job + "-worker-0")
                                .get()
                                .getStatus()
                                .getPhase()));
    }

    @Test
    void aPodThisBridgeCreatedIsBoundAndDeletedUnreadAndOneReplacedMeanwhileIsNot() {
        String job = job();
        CreatedPods created = new CreatedPods();
        PodIntentReconciler intents = new PodIntentReconciler(client, RETRY, deletions, SshKeyPair::generate, created);
        DecisionReconciler decisions = new DecisionReconciler(client, RETRY, created);
        String pod = job + "-worker-0";
        assertThat(intents.apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600"))))
                .isEqualTo(PodIntentReconciler.Outcome.CREATED);
        String uid =
                client.pods().inNamespace(NS).withName(pod).get().getMetadata().getUid();

        assertThat(decisions.apply(bind(job, pod, "node-1", 1, 1))).isEqualTo(BOUND);
        assertThat(client.pods().inNamespace(NS).withName(pod).get().getSpec().getNodeName())
                .isEqualTo("node-1");
        assertThat(intents.apply(TestIntents.delete(NS, job, pod, 1))).isEqualTo(PodIntentReconciler.Outcome.DELETED);
        assertThat(deletions.consume(uid))
                .as("the deletion is recorded as the engine's")
                .isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.pods().inNamespace(NS).withName(pod).get() == null);

        // The next version's pod, deleted in the cluster: the unread bind finds it gone, and waits for it.
        assertThat(intents.apply(TestIntents.create(NS, job, "worker", 0, 2, TestIntents.template("sleep 600"))))
                .isEqualTo(PodIntentReconciler.Outcome.CREATED);
        client.pods().inNamespace(NS).withName(pod).withGracePeriod(0).delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.pods().inNamespace(NS).withName(pod).get() == null);
        assertThat(decisions.apply(bind(job, pod, "node-1", 1, 2))).isEqualTo(DecisionReconciler.Outcome.WAITING);
    }

    @Test
    void aBindOfAPodNotYetCreatedWaitsAndIsCarriedOutOnceTheCreateOrTheWatchMakesItKnown() {
        String job = job();
        CreatedPods known = new CreatedPods();
        DecisionReconciler decisions = new DecisionReconciler(client, RETRY, known);
        String pod = job + "-worker-0";
        assertThat(decisions.apply(bind(job, pod, "node-1", 1, 1))).isEqualTo(DecisionReconciler.Outcome.WAITING);
        assertThat(decisions.waitingKeysCreated()).isEmpty();

        // Created by another reconciler (another bridge's, before a restart): only the watch tells.
        intents().apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600")));
        decisions.retry(NS + "/" + pod);
        assertThat(decisions.isWaiting(NS + "/" + pod))
                .as("unknown, so not read")
                .isTrue();
        known.seen(client.pods().inNamespace(NS).withName(pod).get(), false);
        assertThat(decisions.waitingKeysCreated()).containsExactly(NS + "/" + pod);
        decisions.retry(NS + "/" + pod);

        assertThat(decisions.isWaiting(NS + "/" + pod)).isFalse();
        assertThat(client.pods().inNamespace(NS).withName(pod).get().getSpec().getNodeName())
                .isEqualTo("node-1");
    }

    @Test
    void aBindBeforeItsPodWaitsForThePod() {
        String job = job();
        DecisionReconciler decisions = new DecisionReconciler(client, RETRY);
        assertThat(decisions.apply(bind(job, job + "-worker-0", "node-0", 1, 1)))
                .isEqualTo(DecisionReconciler.Outcome.WAITING);
        assertThat(decisions.pendingCount()).isEqualTo(1);

        intents().apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600")));
        decisions.retryPending();

        assertThat(decisions.pendingCount()).isZero();
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName(job + "-worker-0")
                        .get()
                        .getSpec()
                        .getNodeName())
                .isEqualTo("node-0");
    }

    @Test
    void decisionsOfAnOlderEpochAreDropped() {
        String job = job();
        intents().apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600")));
        DecisionReconciler decisions = new DecisionReconciler(client, RETRY);
        String other = job();
        assertThat(decisions.apply(bind(other, other + "-x-0", "node-0", 7, 1)))
                .isEqualTo(DecisionReconciler.Outcome.WAITING);

        assertThat(decisions.apply(bind(job, job + "-worker-0", "node-0", 6, 1)))
                .isEqualTo(DecisionReconciler.Outcome.STALE);
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName(job + "-worker-0")
                        .get()
                        .getSpec()
                        .getNodeName())
                .isNull();
    }

    @Test
    void statusChangesBecomePodEventsWithExitCodesAndDeletionsAreTold() {
        String job = job();
        ListSink sink = new ListSink();
        try (PodWatcher watcher = new PodWatcher(
                        client, sink, deletions, Clock.systemUTC(), 0, Optional.empty(), new CreatedPods())
                .start()) {
            String template = """
                    {"metadata":{"annotations":{"lahar.io/sim-duration":"2s","lahar.io/sim-exit-code":"3"}},
                     "spec":{"containers":[{"name":"main","image":"busybox"}]}}""";
            PodIntentReconciler reconciler = intents();
            reconciler.apply(TestIntents.create(NS, job, "worker", 0, 1, template));
            reconciler.apply(TestIntents.create(NS, job, "worker", 1, 1, template));
            DecisionReconciler decisions = new DecisionReconciler(client, RETRY);
            decisions.apply(bind(job, job + "-worker-0", "node-0", 1, 1));

            await().atMost(Duration.ofSeconds(15))
                    .until(() -> eventsOf(sink, job + "-worker-0").stream()
                            .anyMatch(e -> e.getPhase().equals("Failed")));
            List<PodEvent> events = eventsOf(sink, job + "-worker-0");
            assertThat(events).extracting(PodEvent::getPhase).containsSubsequence("Pending", "Running", "Failed");
            PodEvent failed = events.getLast();
            assertThat(failed.getNode()).isEqualTo("node-0");
            assertThat(failed.getJob()).isEqualTo(job);
            assertThat(failed.getTask()).isEqualTo("worker");
            assertThat(failed.getJobVersion()).isEqualTo(1);
            assertThat(failed.getContainers())
                    .singleElement()
                    .satisfies(c -> assertThat(c.getExitCode()).isEqualTo(3));
            // The binding's PodScheduled time, which the cdp plugin measures a cooldown from: none before it.
            assertThat(failed.getScheduledTime()).isNotNull();
            assertThat(events)
                    .filteredOn(e -> e.getNode() == null)
                    .allSatisfy(e -> assertThat(e.getScheduledTime()).isNull());
            assertThat(events)
                    .filteredOn(e -> e.getPhase().equals("Running"))
                    .extracting(PodEvent::getScheduledTime)
                    .containsOnly(failed.getScheduledTime());
            assertThat(sink.sent)
                    .filteredOn(
                            s -> s.value() instanceof PodEvent e && e.getJob().equals(job))
                    .allSatisfy(s -> assertThat(s.key()).isEqualTo(Topics.jobKey(NS, job)));

            // The engine's deletion is not an eviction; the scheduler's eviction is.
            reconciler.apply(TestIntents.delete(NS, job, job + "-worker-0", 1));
            decisions.apply(SchedulerDecision.newBuilder()
                    .setNamespace(NS)
                    .setJob(job)
                    .setPodGroup(job)
                    .setEpoch(1)
                    .setTime(TestIntents.T0)
                    .setDecision(Evict.newBuilder()
                            .setPod(job + "-worker-1")
                            .setReason("preempted")
                            .setAction("preempt")
                            .build())
                    .build());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> eventsOf(sink, job + "-worker-0").getLast().getDeleted()
                            && eventsOf(sink, job + "-worker-1").getLast().getDeleted());
            assertThat(eventsOf(sink, job + "-worker-0").getLast().getDeletedByOthers())
                    .isFalse();
            assertThat(eventsOf(sink, job + "-worker-1").getLast().getDeletedByOthers())
                    .isTrue();
        }
    }

    @Test
    void aPodEventThatCouldNotBeSentIsSentAgainAtTheNextResync() {
        String job = job();
        AtomicInteger refusals = new AtomicInteger(1);
        ListSink sink = new ListSink() {
            @Override
            public void send(String topic, String key, SpecificRecord value) {
                // The broker refuses the first event: the watch goes on without waiting for it.
                if (refusals.getAndDecrement() > 0) {
                    throw new KafkaException("broker away");
                }
                super.send(topic, key, value);
            }
        };
        try (PodWatcher watcher = new PodWatcher(
                        client, sink, deletions, Clock.systemUTC(), 500, Optional.empty(), new CreatedPods())
                .start()) {
            intents().apply(TestIntents.create(NS, job, "worker", 0, 1, TestIntents.template("sleep 600")));

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !eventsOf(sink, job + "-worker-0").isEmpty());
            assertThat(refusals.get()).isNegative();
            assertThat(eventsOf(sink, job + "-worker-0").getFirst().getPhase()).isEqualTo("Pending");
        }
    }

    private static List<PodEvent> eventsOf(ListSink sink, String pod) {
        return sink.values(Topics.POD_EVENTS.name(), PodEvent.class).stream()
                .filter(e -> e.getPod().equals(pod))
                .toList();
    }
}
