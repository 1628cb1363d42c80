package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.core.api.PriorityClass;
import io.lahar.core.scheduling.api.PriorityClasses;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Other workloads to Lahar's records and back, as Volcano's pod-group controller and scheduler see them. */
class WorkloadsTest {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final PriorityClasses CLASSES = PriorityClasses.of(List.of(PriorityClass.of("high", 1000, false)));

    private static Pod pod(String yaml) {
        return K8S.unmarshal(yaml, Pod.class);
    }

    private static final String BARE = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: bare
              namespace: ns
              uid: 0a1b2c3d
              annotations: {scheduling.volcano.sh/queue-name: research, volcano.sh/preemptable: "false"}
            spec:
              schedulerName: volcano
              priorityClassName: high
              initContainers:
              - {name: init, image: busybox, resources: {requests: {cpu: "3"}}}
              containers:
              - {name: a, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}
              - {name: b, image: busybox, resources: {limits: {cpu: 500m, memory: 512Mi}}}
            """;

    @Test
    void aBarePodWithTheSchedulersNameGetsVolcanosOnePodGroup() {
        Pod bare = pod(BARE);
        assertThat(Workloads.needsOwnGroup(bare, Set.of("volcano"))).isTrue();
        assertThat(Workloads.needsOwnGroup(bare, Set.of("other"))).isFalse();

        GenericKubernetesResource group = Workloads.onePodGroup(bare, Map.of());

        assertThat(group.getMetadata().getName()).isEqualTo("podgroup-0a1b2c3d");
        assertThat(group.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(group.getMetadata().getLabels()).doesNotContainKey(BridgeLabels.MANAGED_BY);
        assertThat(group.getMetadata().getAnnotations()).containsEntry("volcano.sh/preemptable", "false");
        assertThat(group.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("Pod");
            assertThat(o.getName()).isEqualTo("bare");
            assertThat(o.getUid()).isEqualTo("0a1b2c3d");
            assertThat(o.getController()).isTrue();
        });
        assertThat(group.getAdditionalProperties().get("spec"))
                .isEqualTo(Map.of(
                        "minMember",
                        1,
                        "queue",
                        "research",
                        "priorityClassName",
                        "high",
                        // containers 1 + 0.5 cpu, but the init container's 3 is more
                        "minResources",
                        Map.of("cpu", "3", "memory", "1536Mi")));
        assertThat(Workloads.isOwnGroupOf(group, bare)).isTrue();

        // Its queue defaults as Volcano's does; a pod that names a group, or asks another scheduler, gets none.
        Pod plain = pod(BARE.replace("scheduling.volcano.sh/queue-name: research, ", ""));
        assertThat(((Map<?, ?>) Workloads.onePodGroup(plain, Map.of())
                                .getAdditionalProperties()
                                .get("spec"))
                        .get("queue"))
                .isEqualTo("default");
        // The pods of a ReplicaSet share the group named after it, and owned by it.
        Pod replica = pod(
                BARE.replace(
                        "uid: 0a1b2c3d",
                        "uid: 0a1b2c3d\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-9, controller: true}]"));
        GenericKubernetesResource shared = Workloads.onePodGroup(replica, Map.of());
        assertThat(shared.getMetadata().getName()).isEqualTo("podgroup-rs-9");
        assertThat(shared.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getKind()).isEqualTo("ReplicaSet"));
        assertThat(Workloads.isOwnGroupOf(shared, replica)).isFalse();
        Pod grouped =
                pod(BARE.replace("queue-name: research", "queue-name: research, scheduling.k8s.io/group-name: spark"));
        assertThat(Workloads.needsOwnGroup(grouped, Set.of("volcano"))).isFalse();
        assertThat(Workloads.groupOf(grouped)).contains("spark");
    }

    @Test
    void aBarePodsGroupTakesItsMinMemberAndVolcanoAnnotationsFromItsOwnersAsVolcanosControllerDoes() {
        Pod replica = pod(
                BARE.replace(
                        "uid: 0a1b2c3d",
                        "uid: 0a1b2c3d\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-9, controller: true}]"));
        Map<String, String> owners = Map.of(
                Workloads.GROUP_MIN_MEMBER,
                "3",
                "volcano.sh/preemptable",
                "true",
                "volcano.sh/sla-waiting-time",
                "1h",
                "example.com/other",
                "x");

        GenericKubernetesResource group = Workloads.onePodGroup(replica, owners);

        Map<?, ?> spec = (Map<?, ?>) group.getAdditionalProperties().get("spec");
        assertThat(spec.get("minMember")).isEqualTo(3);
        assertThat(spec.get("minResources"))
                .as("the pod's requests times minMember (Volcano's CalTaskRequests)")
                .isEqualTo(Map.of("cpu", "9", "memory", "4608Mi"));
        assertThat(group.getMetadata().getAnnotations())
                .as("the owners' volcano.sh/ annotations, under the pod's own")
                .containsEntry("volcano.sh/sla-waiting-time", "1h")
                .containsEntry("volcano.sh/preemptable", "false")
                .doesNotContainKey("example.com/other")
                .doesNotContainKey(Workloads.GROUP_MIN_MEMBER);
        assertThat(Workloads.minMemberProblem(owners)).isEmpty();
        assertThat(Workloads.minMemberProblem(Map.of())).isEmpty();

        for (String bad : List.of("many", "-2", "99999999999")) {
            Map<String, String> badOwners = Map.of(Workloads.GROUP_MIN_MEMBER, bad);
            assertThat(((Map<?, ?>) Workloads.onePodGroup(replica, badOwners)
                                    .getAdditionalProperties()
                                    .get("spec"))
                            .get("minMember"))
                    .as("Volcano keeps minMember 1 for %s", bad)
                    .isEqualTo(1);
            assertThat(Workloads.minMemberProblem(badOwners))
                    .hasValueSatisfying(p -> assertThat(p).contains(Workloads.GROUP_MIN_MEMBER, bad, "minMember 1"));
        }
        assertThat(((Map<?, ?>) Workloads.onePodGroup(replica, Map.of(Workloads.GROUP_MIN_MEMBER, "0"))
                                .getAdditionalProperties()
                                .get("spec"))
                        .get("minResources"))
                .as("no member, no minimum")
                .isNull();
    }

    @Test
    void aBarePodsNetworkTopologyAnnotationsAreItsGroupsAndRefusedWithIt() {
        Pod tiered = pod(BARE.replace(
                "volcano.sh/preemptable: \"false\"",
                "volcano.sh/network-topology-mode: Soft, volcano.sh/network-topology-highest-tier: \"2\""));

        GenericKubernetesResource group = Workloads.onePodGroup(tiered, Map.of());

        assertThat(((Map<?, ?>) group.getAdditionalProperties().get("spec")).get("networkTopology"))
                .isEqualTo(Map.of("mode", "soft", "highestTierAllowed", 2));
        group.getMetadata().setUid("pg-2");
        assertThatThrownBy(() -> Workloads.podGroup(group, CLASSES, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec.networkTopology: not supported");
    }

    @Test
    void aPodOfAnotherWorkloadIsItsSpecAsACreatePodWithPhaseAndNode() {
        Pod executor = pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: spark-pi-exec-1
                  namespace: ns
                  uid: u-1
                  labels: {spark-role: executor, scheduling.k8s.io/group-name: spark-pi}
                  annotations: {volcano.sh/task-spec: executor}
                spec:
                  schedulerName: volcano
                  nodeName: node-2
                  priority: 7
                  nodeSelector: {kubernetes.io/os: linux}
                  tolerations: [{key: dedicated, operator: Equal, value: spark, effect: NoSchedule}]
                  containers:
                  - {name: executor, image: spark, resources: {requests: {cpu: "1", memory: 1Gi}}}
                status: {phase: Running}
                """);

        assertThat(Workloads.groupOf(executor)).as("the label form").contains("spark-pi");
        WorkloadPod record = Workloads.pod(executor, "spark-pi", NOW);

        assertThat(record.getName()).isEqualTo("spark-pi-exec-1");
        assertThat(record.getUid()).isEqualTo("u-1");
        assertThat(record.getPhase()).isEqualTo("Running");
        assertThat(record.getNode()).isEqualTo("node-2");
        assertThat(record.getDeleting()).isFalse();
        var spec = record.getSpec();
        assertThat(spec.getPod()).isEqualTo("spark-pi-exec-1");
        assertThat(spec.getPodGroup()).isEqualTo("spark-pi");
        assertThat(spec.getTask()).isEqualTo("executor");
        assertThat(spec.getSchedulerName()).isEqualTo("volcano");
        assertThat(spec.getRequests()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "1", "memory", "1Gi"));
        assertThat(spec.getPriority()).isEqualTo(7);
        assertThat(spec.getNodeSelector()).containsEntry("kubernetes.io/os", "linux");
        assertThat(spec.getTolerations())
                .singleElement()
                .satisfies(t -> assertThat(t.getValue()).isEqualTo("spark"));
        assertThat(spec.getTemplate()).contains("\"containers\"").contains("\"spark-role\":\"executor\"");
        assertThat(Workloads.samePod(record, Workloads.pod(executor, "spark-pi", NOW.plusSeconds(60))))
                .as("the time it was seen is no change")
                .isTrue();
    }

    @Test
    void aPodsScheduledTimeIsItsPodScheduledConditionsWhileTrue() {
        String yaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: ns, uid: u, labels: {scheduling.k8s.io/group-name: g}}
                spec: {schedulerName: volcano, nodeName: node-1, containers: [{name: c, image: x}]}
                status:
                  phase: Running
                  conditions:
                  - {type: Ready, status: "True", lastTransitionTime: "2026-12-04T09:59:30Z"}
                  - {type: PodScheduled, status: "%s", lastTransitionTime: "2026-12-04T09:58:00Z"}
                """;
        WorkloadPod scheduled = Workloads.pod(pod(yaml.formatted("True")), "g", NOW);
        assertThat(scheduled.getScheduledTime()).isEqualTo(Instant.parse("2026-12-04T09:58:00Z"));
        WorkloadPod not = Workloads.pod(pod(yaml.formatted("False")), "g", NOW);
        assertThat(not.getScheduledTime()).isNull();
        assertThat(Workloads.samePod(scheduled, not))
                .as("a change of the scheduled time is a change")
                .isFalse();
        assertThat(Workloads.pod(pod(BARE), "g", NOW).getScheduledTime()).isNull();
    }

    private static GenericKubernetesResource cr(String yaml) {
        return K8S.unmarshal(yaml, GenericKubernetesResource.class);
    }

    @Test
    void anotherOperatorsPodGroupIsARecordUnderItsOwnKey() {
        PodGroup record = Workloads.podGroup(cr("""
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: PodGroup
                        metadata: {name: spark-pi, namespace: ns, uid: pg-1, creationTimestamp: "2026-12-04T09:59:00Z"}
                        spec:
                          minMember: 3
                          minTaskMember: {driver: 1, executor: 2}
                          priorityClassName: high
                          minResources: {cpu: "3", memory: 3Gi}
                          subGroupPolicy:
                          - name: executor
                            subGroupSize: 2
                            labelSelector: {matchLabels: {spark-role: executor}}
                            matchLabelKeys: [rack]
                        """), CLASSES, NOW);

        assertThat(record.getNamespace()).isEqualTo("ns");
        assertThat(record.getName()).isEqualTo("spark-pi");
        assertThat(record.getJob()).isEqualTo("podgroup:spark-pi");
        assertThat(WorkloadKeys.groupKey(record.getNamespace(), record.getName()))
                .isEqualTo("ns/podgroup:spark-pi");
        assertThat(record.getJobUid()).isEqualTo("pg-1");
        assertThat(record.getOrigin()).isEqualTo("PodGroup");
        assertThat(record.getCreationTimestamp()).isEqualTo(Instant.parse("2026-12-04T09:59:00Z"));
        assertThat(record.getSpec().getMinMember()).isEqualTo(3);
        assertThat(record.getSpec().getMinTaskMember()).containsEntry("executor", 2);
        assertThat(record.getSpec().getQueue()).as("Volcano's default queue").isEqualTo("default");
        assertThat(record.getSpec().getPriorityClassName()).isEqualTo("high");
        assertThat(record.getSpec().getPriority()).as("the class's value").isEqualTo(1000);
        assertThat(record.getSpec().getMinResources()).containsEntry("memory", "3Gi");
        assertThat(record.getSpec().getSubGroupPolicy()).singleElement().satisfies(p -> {
            assertThat(p.getSubGroupSize()).isEqualTo(2);
            assertThat(p.getMatchLabels()).containsEntry("spark-role", "executor");
            assertThat(p.getMatchLabelKeys()).containsExactly("rack");
        });
        assertThat(record.getStatus().getPhase()).isEqualTo("Pending");

        assertThatThrownBy(() -> Workloads.podGroup(cr("""
                                apiVersion: scheduling.volcano.sh/v1beta1
                                kind: PodGroup
                                metadata: {name: bad, namespace: ns}
                                spec: {minMember: many}
                                """), CLASSES, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec.minMember: must be an integer");
    }

    @Test
    void aPodGroupsSlaWaitingTimeGoesOnItsRecordAndOneThatIsNoDurationIsRefused() {
        PodGroup record = Workloads.podGroup(cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: sla, namespace: ns, annotations: {sla-waiting-time: 10m}}
                spec: {minMember: 1}
                """), CLASSES, NOW);
        assertThat(record.getAnnotations()).containsEntry("sla-waiting-time", "10m");
        assertThatThrownBy(() -> Workloads.podGroup(cr("""
                                apiVersion: scheduling.volcano.sh/v1beta1
                                kind: PodGroup
                                metadata: {name: sla, namespace: ns, annotations: {sla-waiting-time: soon}}
                                spec: {minMember: 1}
                                """), CLASSES, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metadata.annotations.sla-waiting-time: not a positive duration");
    }

    @Test
    void aPodGroupsLabelsGoOnItsRecordAndABudgetTheSchedulerCouldNotCarryOutIsRefused() {
        PodGroup record = Workloads.podGroup(cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: tdm, namespace: ns, labels: {volcano.sh/preemptable: "true"}}
                spec: {minMember: 1}
                """), CLASSES, NOW);
        assertThat(record.getLabels()).containsEntry("volcano.sh/preemptable", "true");
        assertThatThrownBy(() -> Workloads.podGroup(cr("""
                                apiVersion: scheduling.volcano.sh/v1beta1
                                kind: PodGroup
                                metadata: {name: tdm, namespace: ns, annotations: {volcano.sh/jdb-min-available: "0"}}
                                spec: {minMember: 1}
                                """), CLASSES, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metadata.annotations.volcano.sh/jdb-min-available: must be a positive integer");
    }

    @Test
    void aPodGroupIsHeldToCoreAdmissionsRulesOfItsSpecWithEveryViolationAndItsPath() {
        assertThatThrownBy(() -> Workloads.podGroup(cr("""
                                apiVersion: scheduling.volcano.sh/v1beta1
                                kind: PodGroup
                                metadata: {name: tiers, namespace: ns}
                                spec:
                                  minMember: -1
                                  minResources: {cpu: lots}
                                  networkTopology: {mode: hard, highestTierAllowed: 1}
                                  subGroupPolicy:
                                  - {name: a, subGroupSize: 2, networkTopology: {mode: soft}}
                                """), CLASSES, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec.minMember: must be >= 0")
                .hasMessageContaining("spec.minResources.cpu: ")
                .hasMessageContaining("spec.networkTopology: not supported: Lahar's scheduler has no HyperNodes")
                .hasMessageContaining("spec.subGroupPolicy[0].networkTopology: not a field");
        assertThat(Workloads.podGroup(cr("""
                                apiVersion: scheduling.volcano.sh/v1beta1
                                kind: PodGroup
                                metadata: {name: elsewhere, namespace: ns}
                                spec: {minMember: 1, queue: nope}
                                """), CLASSES, NOW).getSpec().getQueue())
                .as("a queue that does not exist is the scheduler's verdict (Unschedulable), not a refusal")
                .isEqualTo("nope");
    }

    @Test
    void aPriorityClassThatDoesNotExistIsTheGlobalDefaultsValueAsInVolcanosScheduler() {
        GenericKubernetesResource cr = cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: ranked, namespace: ns}
                spec: {minMember: 1, priorityClassName: missing}
                """);
        assertThat(Workloads.podGroup(cr, CLASSES, NOW).getSpec().getPriority())
                .as("no such class, no global default")
                .isZero();
        PriorityClasses withDefault =
                PriorityClasses.of(List.of(PriorityClass.of("high", 1000, false), PriorityClass.of("normal", 7, true)));
        assertThat(Workloads.podGroup(cr, withDefault, NOW).getSpec().getPriority())
                .isEqualTo(7);
        assertThat(Workloads.podGroup(cr, withDefault, NOW).getSpec().getPriorityClassName())
                .as("the name as the CR has it")
                .isEqualTo("missing");
    }

    private static PodGroupStatus status(String phase, String reason, String message, int running) {
        List<PodGroupCondition> conditions = reason == null
                ? List.of()
                : List.of(new PodGroupCondition("Unschedulable", "True", "s1", NOW, reason, message));
        return new PodGroupStatus(phase, conditions, running, 0, 0);
    }

    @Test
    void theDecidedStatusIsTheCrsStatusAndAnEventWhenThePhaseOrTheReasonChanges() {
        GenericKubernetesResource cr = cr("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: spark-pi, namespace: ns, uid: pg-1}
                spec: {minMember: 3, queue: nope}
                """);
        PodGroupStatus unknownQueue = status("Pending", "NotEnoughResources", "queue \"nope\" not found", 0);
        Map<String, Object> written = Workloads.status(unknownQueue);
        assertThat(written).containsEntry("phase", "Pending").containsEntry("running", 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> condition = ((List<Map<String, Object>>) written.get("conditions")).get(0);
        assertThat(condition)
                .containsEntry("type", "Unschedulable")
                .containsEntry("message", "queue \"nope\" not found");

        var warning = Workloads.event(cr, Map.of("phase", "Pending"), unknownQueue, NOW)
                .orElseThrow();
        assertThat(warning.getType()).isEqualTo("Warning");
        assertThat(warning.getReason()).isEqualTo("Unschedulable");
        assertThat(warning.getMessage()).contains("queue \"nope\" not found");
        assertThat(warning.getInvolvedObject().getKind()).isEqualTo("PodGroup");
        assertThat(warning.getInvolvedObject().getUid()).isEqualTo("pg-1");
        assertThat(Workloads.event(cr, written, unknownQueue, NOW.plusSeconds(1)))
                .as("the same reason again")
                .isEmpty();

        var running = Workloads.event(cr, written, status("Running", null, null, 3), NOW);
        assertThat(running).hasValueSatisfying(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("Running");
            assertThat(e.getMessage()).contains("Pending → Running").contains("running 3");
        });
        assertThat(Workloads.event(cr, null, status("Running", null, null, 3), NOW))
                .as("a CR without a status yet is Pending: its first status of Running is a change")
                .hasValueSatisfying(e -> assertThat(e.getMessage()).contains("Pending → Running"));
        assertThat(Workloads.event(cr, Map.of(), status("Pending", null, null, 0), NOW))
                .as("nor is a first status of Pending")
                .isEmpty();
    }
}
