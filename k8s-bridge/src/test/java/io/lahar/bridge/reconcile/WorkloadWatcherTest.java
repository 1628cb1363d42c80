package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Other workloads against the embedded cluster: a bare volcano pod gets Volcano's one-pod PodGroup
 * and both become records; another operator's PodGroup CR and its pods become records, Lahar's own
 * mirrors and pods do not; the scheduler's verdict comes back as the CR's status and Events; a
 * deleted pod or CR is a tombstone, and a bare pod's group goes with it.
 */
class WorkloadWatcherTest {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static final ListSink sink = new ListSink();
    private static PriorityClassWatcher classes;
    private static WorkloadWatcher watcher;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
        client = cluster.client();
        classes = new PriorityClassWatcher(client, sink, Clock.systemUTC(), 0, true).start();
        watcher = new WorkloadWatcher(
                        client, sink, RETRY, Clock.systemUTC(), 0, Optional.of("wl"), Set.of("volcano"), classes)
                .start();
    }

    @AfterAll
    static void stop() {
        watcher.close();
        classes.close();
        cluster.close();
    }

    private static Pod create(String yaml) {
        return client.pods()
                .inNamespace("wl")
                .resource(K8S.unmarshal(yaml, Pod.class))
                .create();
    }

    private static void createGroup(String yaml) {
        client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace("wl")
                .resource(K8S.unmarshal(yaml, GenericKubernetesResource.class))
                .create();
    }

    private static List<ListSink.Sent> sent(String topic, String key) {
        return sink.sent.stream()
                .filter(s -> s.topic().equals(topic) && s.key().equals(key))
                .toList();
    }

    private static GenericKubernetesResource group(String name) {
        return client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace("wl")
                .withName(name)
                .get();
    }

    @Test
    void aBarePodGetsItsOwnPodGroupAndBothAreRecordsUntilThePodIsDeleted() {
        Pod bare = create("""
                apiVersion: v1
                kind: Pod
                metadata: {name: bare, namespace: wl}
                spec:
                  schedulerName: volcano
                  containers: [{name: a, image: busybox, resources: {requests: {cpu: "1"}}}]
                """);
        String groupName = "podgroup-" + bare.getMetadata().getUid();
        String groupKey = "wl/podgroup:" + groupName;

        await().atMost(TIMEOUT)
                .until(() -> !sent(Topics.WORKLOAD_PODS.name(), "wl/bare").isEmpty());
        assertThat(group(groupName)).isNotNull();
        assertThat(client.pods()
                        .inNamespace("wl")
                        .withName("bare")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", groupName);
        WorkloadPod pod = (WorkloadPod)
                sent(Topics.WORKLOAD_PODS.name(), "wl/bare").get(0).value();
        assertThat(pod.getSpec().getPodGroup()).isEqualTo(groupName);
        assertThat(pod.getSpec().getRequests()).containsEntry("cpu", "1");
        await().atMost(TIMEOUT)
                .until(() -> !sent(Topics.POD_GROUPS.name(), groupKey).isEmpty());
        PodGroup record =
                (PodGroup) sent(Topics.POD_GROUPS.name(), groupKey).get(0).value();
        assertThat(record.getSpec().getMinMember()).isEqualTo(1);
        assertThat(record.getSpec().getQueue()).isEqualTo("default");
        assertThat(record.getOrigin()).isEqualTo("PodGroup");

        client.pods().inNamespace("wl").withName("bare").delete();

        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(sent(Topics.WORKLOAD_PODS.name(), "wl/bare"))
                    .last()
                    .satisfies(s -> assertThat(s.value()).isNull());
            assertThat(sent(Topics.POD_GROUPS.name(), groupKey))
                    .last()
                    .satisfies(s -> assertThat(s.value()).isNull());
        });
        assertThat(group(groupName)).as("the bare pod's group went with it").isNull();
    }

    @Test
    void aBarePodOfAReplicaSetGetsTheMinMemberItsOwnerAnnotates() {
        Pod first = create(replicaPod("wide", "2", "wide-a"));
        String groupName =
                "podgroup-" + first.getMetadata().getOwnerReferences().get(0).getUid();
        await().atMost(TIMEOUT)
                .until(() -> !sent(Topics.POD_GROUPS.name(), "wl/podgroup:" + groupName)
                        .isEmpty());
        PodGroup record = (PodGroup) sent(Topics.POD_GROUPS.name(), "wl/podgroup:" + groupName)
                .get(0)
                .value();
        assertThat(record.getSpec().getMinMember()).isEqualTo(2);
        assertThat(record.getSpec().getMinResources()).containsEntry("cpu", "2");

        // An annotation that is no number: minMember 1 as in Volcano, and the group says why.
        Pod odd = create(replicaPod("odd", "many", "odd-a"));
        String oddGroup =
                "podgroup-" + odd.getMetadata().getOwnerReferences().get(0).getUid();
        await().atMost(TIMEOUT)
                .until(() -> !sent(Topics.POD_GROUPS.name(), "wl/podgroup:" + oddGroup)
                        .isEmpty());
        assertThat(((PodGroup) sent(Topics.POD_GROUPS.name(), "wl/podgroup:" + oddGroup)
                                .get(0)
                                .value())
                        .getSpec()
                        .getMinMember())
                .isEqualTo(1);
        assertThat(events(oddGroup)).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("InvalidAnnotation");
            assertThat(e.getMessage()).contains("scheduling.volcano.sh/group-min-member", "\"many\"", "minMember 1");
        });
    }

    /** A ReplicaSet annotated with a group-min-member, and the YAML of one pod it owns. */
    private static String replicaPod(String replicaSet, String minMember, String pod) {
        ReplicaSet rs = client.apps()
                .replicaSets()
                .inNamespace("wl")
                .resource(new ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName(replicaSet)
                        .withAnnotations(Map.of("scheduling.volcano.sh/group-min-member", minMember))
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .withMatchLabels(Map.of("app", replicaSet))
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: wl
                  labels: {app: %s}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: %s, uid: %s, controller: true}]
                spec:
                  schedulerName: volcano
                  containers: [{name: a, image: busybox, resources: {requests: {cpu: "1"}}}]
                """.formatted(pod, replicaSet, replicaSet, rs.getMetadata().getUid());
    }

    @Test
    void anotherOperatorsGroupIsARecordLaharsOwnAreNotAndTheVerdictComesBackOnTheCr() {
        createGroup("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: spark-pi, namespace: wl}
                        spec: {minMember: 2, queue: nope}
                        """);
        createGroup("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: lahar-job-pg, namespace: wl, labels: {app.kubernetes.io/managed-by: lahar}}
                        spec: {minMember: 1, queue: default}
                        """);
        create("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: spark-pi-driver
                  namespace: wl
                  annotations: {scheduling.k8s.io/group-name: spark-pi}
                spec:
                  schedulerName: volcano
                  containers: [{name: driver, image: spark}]
                """);
        create("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lahar-job-main-0
                  namespace: wl
                  labels: {app.kubernetes.io/managed-by: lahar}
                spec:
                  schedulerName: volcano
                  containers: [{name: main, image: busybox}]
                """);

        await().atMost(TIMEOUT)
                .until(() ->
                        !sent(Topics.POD_GROUPS.name(), "wl/podgroup:spark-pi").isEmpty()
                                && !sent(Topics.WORKLOAD_PODS.name(), "wl/spark-pi-driver")
                                        .isEmpty());
        assertThat(sent(Topics.POD_GROUPS.name(), "wl/podgroup:lahar-job-pg")).isEmpty();
        assertThat(sent(Topics.WORKLOAD_PODS.name(), "wl/lahar-job-main-0")).isEmpty();
        assertThat(group("podgroup-"
                        + client.pods()
                                .inNamespace("wl")
                                .withName("lahar-job-main-0")
                                .get()
                                .getMetadata()
                                .getUid()))
                .as("Lahar's pods have their Job's group")
                .isNull();

        // The scheduler finds no queue "nope": the CR says so, in its status and in a Warning.
        WorkloadStatusWriter writer = new WorkloadStatusWriter(client, RETRY);
        Instant t = Instant.parse("2026-12-04T10:00:00Z");
        PodGroupCondition noQueue = new PodGroupCondition(
                "Unschedulable", "True", "s1", t, "NotEnoughResources", "queue \"nope\" not found");
        assertThat(writer.apply(decision(new PodGroupStatus("Pending", List.of(noQueue), 0, 0, 0), t)))
                .isEqualTo(StatusSubresource.Outcome.WRITTEN);
        assertThat(writer.apply(decision(new PodGroupStatus("Pending", List.of(noQueue), 0, 0, 0), t)))
                .isEqualTo(StatusSubresource.Outcome.UNCHANGED);
        Map<?, ?> status =
                (Map<?, ?>) group("spark-pi").getAdditionalProperties().get("status");
        assertThat(status.get("phase")).isEqualTo("Pending");
        assertThat(status.get("conditions").toString()).contains("Unschedulable", "queue \"nope\" not found");
        assertThat(events("spark-pi")).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Unschedulable");
            assertThat(e.getMessage()).contains("queue \"nope\" not found");
        });
        int recordsBefore =
                sent(Topics.POD_GROUPS.name(), "wl/podgroup:spark-pi").size();

        // Once the queue exists, the gang runs.
        assertThat(writer.apply(decision(new PodGroupStatus("Running", List.of(), 2, 0, 0), t.plusSeconds(5))))
                .isEqualTo(StatusSubresource.Outcome.WRITTEN);
        Map<?, ?> running =
                (Map<?, ?>) group("spark-pi").getAdditionalProperties().get("status");
        assertThat(running.get("phase")).isEqualTo("Running");
        assertThat(running.get("running")).isEqualTo(2);
        assertThat(events("spark-pi"))
                .extracting(Event::getReason)
                .containsExactlyInAnyOrder("Unschedulable", "Running");
        // The bridge's own status writes are no change of the group: no record is sent for them.
        await().during(Duration.ofMillis(500))
                .atMost(TIMEOUT)
                .until(() ->
                        sent(Topics.POD_GROUPS.name(), "wl/podgroup:spark-pi").size() == recordsBefore);

        client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace("wl")
                .withName("spark-pi")
                .delete();
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(sent(Topics.POD_GROUPS.name(), "wl/podgroup:spark-pi"))
                        .last()
                        .satisfies(s -> assertThat(s.value()).isNull()));
    }

    @Test
    void aGroupLaharCannotHonourIsRefusedOnTheCrAndNeverScheduled() {
        createGroup("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: tiers, namespace: wl}
                        spec: {minMember: -2, networkTopology: {mode: hard, highestTierAllowed: 1}}
                        """);

        await().atMost(TIMEOUT).untilAsserted(() -> {
            Map<?, ?> status =
                    (Map<?, ?>) group("tiers").getAdditionalProperties().get("status");
            assertThat(status)
                    .as("the refusal's status, written after its Event")
                    .isNotNull();
            assertThat(status.get("phase")).isEqualTo("Pending");
            assertThat(String.valueOf(status.get("conditions")))
                    .contains(
                            "Unschedulable",
                            "Invalid",
                            "spec.minMember: must be >= 0",
                            "spec.networkTopology",
                            "no HyperNodes");
        });
        assertThat(events("tiers")).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Invalid");
            assertThat(e.getMessage())
                    .contains("spec.minMember: must be >= 0", "spec.networkTopology", "no HyperNodes");
        });
        // Its own status write is read back by the watch: still no record, and no second Warning.
        await().during(Duration.ofMillis(500))
                .atMost(TIMEOUT)
                .until(() -> sent(Topics.POD_GROUPS.name(), "wl/podgroup:tiers").isEmpty()
                        && events("tiers").size() == 1);
    }

    @Test
    void aGroupEditedIntoOneLaharRefusesIsTombstonedSoItsOldSpecIsNoLongerScheduled() {
        createGroup("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: edited, namespace: wl}
                        spec: {minMember: 2}
                        """);
        String key = "wl/podgroup:edited";
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(sent(Topics.POD_GROUPS.name(), key))
                        .singleElement()
                        .satisfies(s -> assertThat(s.value()).isNotNull()));

        editSpec("edited", Map.of("minMember", -1));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(sent(Topics.POD_GROUPS.name(), key))
                    .as("the record the scheduler holds, then its tombstone")
                    .hasSize(2)
                    .last()
                    .satisfies(s -> assertThat(s.value()).isNull());
            assertThat(events("edited"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).contains("spec.minMember: must be >= 0"));
        });

        editSpec("edited", Map.of("minMember", 1));
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(sent(Topics.POD_GROUPS.name(), key))
                        .as("valid again: sent again")
                        .hasSize(3)
                        .last()
                        .satisfies(
                                s -> assertThat(((PodGroup) s.value()).getSpec().getMinMember())
                                        .isEqualTo(1)));
    }

    /** The CR's spec replaced, again on a conflict with the bridge's own status write. */
    private static void editSpec(String name, Map<String, Object> spec) {
        await().atMost(TIMEOUT).ignoreException(KubernetesClientException.class).untilAsserted(() -> {
            GenericKubernetesResource cr = group(name);
            cr.getAdditionalProperties().put("spec", spec);
            client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                    .inNamespace("wl")
                    .resource(cr)
                    .update();
        });
    }

    @Test
    void aGroupsPriorityIsItsPriorityClassesValueAndFollowsTheClass() {
        createGroup("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: ranked, namespace: wl}
                        spec: {minMember: 1, priorityClassName: urgent}
                        """);
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(priorities("ranked"))
                        .as("no such class yet, and no global default")
                        .containsExactly(0));

        var urgent = client.scheduling()
                .v1()
                .priorityClasses()
                .resource(new PriorityClassBuilder()
                        .withNewMetadata()
                        .withName("urgent")
                        .endMetadata()
                        .withValue(1000)
                        .build())
                .create();
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(priorities("ranked"))
                        .as("the class, once created, gives the group its value")
                        .containsExactly(0, 1000));
        assertThat(sent(Topics.PRIORITY_CLASSES.name(), "urgent"))
                .as("the class on lahar.priority-classes, for the scheduler")
                .singleElement()
                .satisfies(s -> {
                    io.lahar.schema.PriorityClass record = (io.lahar.schema.PriorityClass) s.value();
                    assertThat(record.getName()).isEqualTo("urgent");
                    assertThat(record.getValue()).isEqualTo(1000);
                    assertThat(record.getGlobalDefault()).isFalse();
                });

        client.scheduling().v1().priorityClasses().resource(urgent).delete();
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(priorities("ranked")).containsExactly(0, 1000, 0));
        assertThat(sent(Topics.PRIORITY_CLASSES.name(), "urgent"))
                .as("a tombstone once deleted")
                .hasSize(2)
                .last()
                .satisfies(s -> assertThat(s.value()).isNull());
    }

    /** The priorities of the group's records, in the order they were sent. */
    private static List<Integer> priorities(String group) {
        return sent(Topics.POD_GROUPS.name(), "wl/podgroup:" + group).stream()
                .map(s -> ((PodGroup) s.value()).getSpec().getPriority())
                .toList();
    }

    private static SchedulerDecision decision(PodGroupStatus status, Instant at) {
        return SchedulerDecision.newBuilder()
                .setNamespace("wl")
                .setJob("podgroup:spark-pi")
                .setPodGroup("spark-pi")
                .setEpoch(1)
                .setTime(at)
                .setDecision(status)
                .setPodGroupVersion(0)
                .build();
    }

    private static List<Event> events(String name) {
        return client.v1().events().inNamespace("wl").list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(name))
                .toList();
    }
}
