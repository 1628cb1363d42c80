package io.lahar.scheduler.mapping;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.scheduler.Records;
import io.lahar.schema.CreatePod;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.Queue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MappingTest {

    @Test
    void nodeCarriesAllocatableLabelsTaintsAndNotReadyMeansUnschedulable() {
        Node n = node("n1", "4", "8Gi", Map.of("zone", "a"), List.of(Records.taint("gpu", "yes")));
        NodeInfo info = NodeMapping.toNodeInfo(n, Resource.of(500, 0), 1);
        assertThat(info.allocatable().milliCpu()).isEqualTo(4000);
        assertThat(info.allocatable().memory()).isEqualTo(8L << 30);
        assertThat(info.labels()).containsEntry("zone", "a");
        assertThat(info.taints()).singleElement().satisfies(t -> {
            assertThat(t.key()).isEqualTo("gpu");
            assertThat(t.effect()).isEqualTo(TaintEffect.NoSchedule);
        });
        assertThat(info.otherUsed().milliCpu()).isEqualTo(500);
        assertThat(info.unschedulable()).isFalse();

        n.setReady(false);
        assertThat(NodeMapping.toNodeInfo(n, Resource.EMPTY, 0).unschedulable()).isTrue();
    }

    @Test
    void badNodeNamesEveryReasonWithItsPath() {
        Node n = node("n1", "four", "8Gi", Map.of(), List.of(Records.taint("a", "b")));
        n.getTaints().get(0).setEffect("Sometimes");
        assertThatThrownBy(() -> NodeMapping.check(n))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder("allocatable.cpu", "taints[0].effect"));
    }

    @Test
    void queueMapsWeightCapabilityParentAndState() {
        Queue q = Records.queue("q1", 3);
        q.setCapability(Map.of("cpu", "10"));
        q.setParent("research");
        q.setState(io.lahar.schema.QueueState.Closed);
        q.setReclaimable(false);
        QueueInfo info = QueueMapping.toQueueInfo(q);
        assertThat(info.weight()).isEqualTo(3);
        assertThat(info.capability().milliCpu()).isEqualTo(10_000);
        assertThat(info.capability().memory()).isEqualTo(Resource.UNLIMITED);
        assertThat(info.parent()).isEqualTo("research");
        assertThat(info.state()).isEqualTo(QueueState.Closed);
        assertThat(info.reclaimable()).isFalse();

        q.setState(io.lahar.schema.QueueState.Unknown);
        assertThat(QueueMapping.toQueueInfo(q).state()).isEqualTo(QueueState.Unknown);
    }

    @Test
    void badQueueNamesEveryReason() {
        Queue q = Records.queue("q1", 0);
        q.setGuarantee(Map.of("memory", "-1Gi"));
        assertThatThrownBy(() -> QueueMapping.toQueueInfo(q))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder("weight", "guarantee.memory"));
    }

    @Test
    void aPodsPreemptableAndRevocableZoneAreReadAsVolcanosSchedulerReadsThem() {
        // The annotation first; a revocable zone other than "*" is none; preemptable makes a pod revocable.
        TaskInfo t = PodMapping.toTaskInfo(
                createPod("j", "worker", 0, "volcano", "1")
                        .setAnnotations(Map.of("volcano.sh/revocable-zone", "*", "volcano.sh/preemptable", "false"))
                        .setLabels(Map.of("volcano.sh/preemptable", "true"))
                        .build(),
                0,
                TaskStatus.Pending,
                null);
        assertThat(t.preemptable()).isFalse();
        assertThat(t.revocableZone()).isEqualTo("*");
        t = PodMapping.toTaskInfo(
                createPod("j", "worker", 0, "volcano", "1")
                        .setAnnotations(Map.of("volcano.sh/revocable-zone", "rz1"))
                        .setLabels(Map.of("volcano.sh/preemptable", "false"))
                        .build(),
                0,
                TaskStatus.Pending,
                null);
        assertThat(t.preemptable()).as("a Job's label, copied onto its pods").isFalse();
        assertThat(t.revocableZone()).isEmpty();
        t = PodMapping.toTaskInfo(
                createPod("j", "worker", 0, "volcano", "1")
                        .setAnnotations(Map.of("volcano.sh/preemptable", "true"))
                        .build(),
                0,
                TaskStatus.Pending,
                null);
        assertThat(t.revocableZone()).isEqualTo("*");
    }

    @Test
    void aGroupsPreemptableAndDisruptionBudgetComeFromItsAnnotations() {
        PodGroup g = podGroup("ns1", "train", "q1", 2, "Pending", 0);
        g.setAnnotations(Map.of(
                "volcano.sh/preemptable", "true",
                "volcano.sh/jdb-min-available", "2",
                "volcano.sh/jdb-max-unavailable", "1"));
        JobInfo j = PodGroupMapping.toJobInfo(g, PodGroupPhase.Pending, List.of());
        assertThat(j.preemptable()).isTrue();
        assertThat(j.budget()).isEqualTo(new io.lahar.core.scheduling.api.DisruptionBudget("2", ""));
        g.setAnnotations(Map.of("volcano.sh/jdb-max-unavailable", "30%"));
        j = PodGroupMapping.toJobInfo(g, PodGroupPhase.Pending, List.of());
        assertThat(j.preemptable()).isFalse();
        // Without the annotation, the label (a Job's labels go onto its PodGroup too).
        g.setLabels(Map.of("volcano.sh/preemptable", "true"));
        assertThat(PodGroupMapping.toJobInfo(g, PodGroupPhase.Pending, List.of())
                        .preemptable())
                .isTrue();
        assertThat(j.budget()).isEqualTo(new io.lahar.core.scheduling.api.DisruptionBudget("", "30%"));
    }

    @Test
    void createPodCarriesRequestsSelectorAffinityTolerationsAndPriority() {
        CreatePod pod = createPod("j", "worker", 0, "volcano", "1500m")
                .setNodeSelector(Map.of("disk", "ssd"))
                .setTolerations(List.of(Records.tolerate("gpu", "yes")))
                .setAffinity("""
                        {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                          {"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]}]}]}}}""")
                .setAnnotations(Map.of(io.lahar.core.job.plugins.PodLabels.PREEMPTABLE, "false"))
                .build();
        TaskInfo t = PodMapping.toTaskInfo(pod, 7, TaskStatus.Binding, "n1");
        assertThat(t.name()).isEqualTo("j-worker-0");
        assertThat(t.role()).isEqualTo("worker");
        assertThat(t.resreq().milliCpu()).isEqualTo(1500);
        assertThat(t.nodeSelector()).containsEntry("disk", "ssd");
        assertThat(t.affinity().matches(Map.of("zone", "b"))).isTrue();
        assertThat(t.affinity().matches(Map.of("zone", "c"))).isFalse();
        assertThat(t.tolerations())
                .singleElement()
                .satisfies(tol -> assertThat(tol.tolerates(
                                new io.lahar.core.scheduling.api.Taint("gpu", "yes", TaintEffect.NoSchedule)))
                        .isTrue());
        assertThat(t.priority())
                .as("the pod group's priority when the pod names none")
                .isEqualTo(7);
        assertThat(t.preemptable()).isFalse();
        assertThat(t.status()).isEqualTo(TaskStatus.Binding);
        assertThat(t.nodeName()).isEqualTo("n1");

        pod.setPriority(100);
        assertThat(PodMapping.toTaskInfo(pod, 7, TaskStatus.Pending, null).priority())
                .isEqualTo(100);
    }

    @Test
    void createPodCarriesLabelsInterPodTermsSpreadPortsAndImagesFromTheTemplate() {
        CreatePod pod = createPod("j", "worker", 0, "volcano", "1")
                .setLabels(Map.of("app", "web", "volcano.sh/job-name", "j"))
                .setAffinity("""
                        {"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                          {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]}}""")
                .setTemplate("""
                        {"metadata":{"labels":{"app":"web"}},"spec":{
                          "containers":[{"name":"c","image":"web:1","ports":[{"containerPort":80,"hostPort":8080}]}],
                          "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                            "labelSelector":{"matchLabels":{"app":"web"}},"matchLabelKeys":["volcano.sh/job-name"]}]}}""")
                .build();
        TaskInfo t = PodMapping.toTaskInfo(pod, 0, TaskStatus.Pending, null);
        assertThat(t.spec().labels()).containsEntry("app", "web").containsEntry("volcano.sh/job-name", "j");
        assertThat(t.spec().requiredAntiAffinity())
                .singleElement()
                .satisfies(a -> assertThat(a.topologyKey()).isEqualTo("kubernetes.io/hostname"));
        assertThat(t.spec().topologySpread()).singleElement().satisfies(c -> {
            assertThat(c.maxSkew()).isEqualTo(1);
            assertThat(c.labelSelector().matches(Map.of("app", "web", "volcano.sh/job-name", "j")))
                    .isTrue();
            assertThat(c.labelSelector().matches(Map.of("app", "web", "volcano.sh/job-name", "other")))
                    .as("matchLabelKeys merged")
                    .isFalse();
        });
        assertThat(t.spec().hostPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.port()).isEqualTo(8080));
        assertThat(t.spec().images()).containsExactly("web:1");
    }

    @Test
    void aMalformedSpreadOrAffinityIsRefusedWithItsPath() {
        CreatePod pod = createPod("j", "worker", 0, "volcano", "1")
                .setAffinity("""
                        {"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"web"}}}]}}""")
                .setTemplate("""
                        {"spec":{"topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"Sometimes"}]}}""")
                .build();
        assertThatThrownBy(() -> PodMapping.check(pod))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder(
                                        "intent.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
                                        "intent.template.spec.topologySpreadConstraints[0].maxSkew",
                                        "intent.template.spec.topologySpreadConstraints[0].whenUnsatisfiable"));
    }

    @Test
    void nodeImagesAreRead() {
        Node n = node("n1", "4", "8Gi", Map.of(), List.of());
        n.setImages(List.of(io.lahar.schema.NodeImage.newBuilder()
                .setNames(List.of("web:1", "registry/web@sha256:x"))
                .setSizeBytes(300L << 20)
                .build()));
        NodeInfo info = NodeMapping.toNodeInfo(n, Resource.EMPTY, 0);
        assertThat(info.images()).singleElement().satisfies(i -> {
            assertThat(i.names()).containsExactly("web:1", "registry/web@sha256:x");
            assertThat(i.sizeBytes()).isEqualTo(300L << 20);
        });
    }

    @Test
    void badCreatePodNamesEveryReasonWithItsPath() {
        CreatePod pod = createPod("j", "worker", 0, "volcano", "lots")
                .setTolerations(List.of(io.lahar.schema.Toleration.newBuilder()
                        .setKey("k")
                        .setOperator("Maybe")
                        .build()))
                .setAffinity("""
                        {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                          {"matchExpressions":[{"key":"zone","operator":"Near"}]}]}}}""")
                .build();
        assertThatThrownBy(() -> PodMapping.check(pod))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder(
                                        "intent.requests.cpu",
                                        "intent.tolerations[0].operator",
                                        "intent.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator"));

        CreatePod notJson =
                createPod("j", "worker", 0, "volcano", "1").setAffinity("{nope").build();
        assertThatThrownBy(() -> PodMapping.check(notJson))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems()).extracting(p -> p.path()).containsExactly("intent.affinity"));
    }

    @Test
    void podGroupBecomesAJobKeyedByTheJobName() {
        PodGroup g = podGroup("ns1", "train", "q1", 2, "Inqueue", 42);
        g.getSpec().setMinTaskMember(Map.of("worker", 2));
        g.getSpec().setMinResources(Map.of("cpu", "2"));
        g.getSpec().setPriority(5);
        TaskInfo t = TaskInfo.builder("train-worker-0").role("worker").build();
        JobInfo j = PodGroupMapping.toJobInfo(g, PodGroupPhase.Inqueue, List.of(t));
        assertThat(j.key()).isEqualTo("ns1/train");
        assertThat(j.queue()).isEqualTo("q1");
        assertThat(j.minMember()).isEqualTo(2);
        assertThat(j.minTaskMember()).containsEntry("worker", 2);
        assertThat(j.minResources().milliCpu()).isEqualTo(2000);
        assertThat(j.priority()).isEqualTo(5);
        assertThat(j.creationIndex()).isEqualTo(Records.T0.toEpochMilli() + 42);
        assertThat(j.tasks()).containsExactly(t);

        assertThat(PodGroupMapping.phase("Inqueue")).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(PodGroupMapping.phase("Scaling")).isEqualTo(PodGroupPhase.Unknown);
    }

    @Test
    void aPartitionedTaskReachesTheSchedulerAsASubGroupPolicy() {
        io.lahar.core.api.Job job = io.lahar.core.api.Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: llm, namespace: ml}
                spec:
                  minAvailable: 4
                  tasks:
                  - name: worker
                    replicas: 6
                    minAvailable: 4
                    partitionPolicy: {totalPartitions: 3, partitionSize: 2, minPartitions: 2}
                    template: {spec: {containers: [{name: w, image: w}]}}
                """, io.lahar.core.api.Job.class);
        io.lahar.core.api.PodGroup built = io.lahar.core.job.PodGroups.build(job);
        PodGroup record = io.lahar.schema.codec.PodGroupCodec.toRecord(
                new io.lahar.schema.codec.PodGroupCodec.Context("ml", "llm", null, 0, 0, 0),
                built.name(),
                null,
                null,
                built.spec(),
                PodGroupPhase.Pending,
                List.of(),
                0,
                0,
                0);

        JobInfo j = PodGroupMapping.toJobInfo(record, PodGroupPhase.Pending, List.of());

        assertThat(j.subGroupPolicy())
                .containsExactly(new io.lahar.core.scheduling.api.SubGroupPolicy(
                        "worker",
                        2,
                        2,
                        Map.of("volcano.sh/task-spec", "worker"),
                        List.of("volcano.sh/task-partition-id")));
        TaskInfo fourth = TaskInfo.builder("llm-worker-3")
                .labels(Map.of("volcano.sh/task-spec", "worker", "volcano.sh/task-partition-id", "1"))
                .build();
        assertThat(j.subGroupPolicy().get(0).subGroupOf(fourth.spec().labels())).isEqualTo("worker/1");
    }

    @Test
    void aSubGroupPolicyOfNoSizeIsRefused() {
        PodGroup g = podGroup("ns1", "train", "q1", 2, "Pending", 0);
        g.getSpec()
                .setSubGroupPolicy(List.of(io.lahar.schema.SubGroupPolicy.newBuilder()
                        .setName("worker")
                        .setSubGroupSize(0)
                        .setMinSubGroups(-1)
                        .build()));
        assertThatThrownBy(() -> PodGroupMapping.check(g))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder(
                                        "spec.subGroupPolicy[0].subGroupSize", "spec.subGroupPolicy[0].minSubGroups"));
    }

    @Test
    void aGroupsOwnSlaWaitingTimeComesFromItsAnnotations() {
        PodGroup g = podGroup("ns1", "train", "q1", 2, "Pending", 0);
        g.setAnnotations(Map.of("sla-waiting-time", "1h30m", "other", "x"));
        assertThat(PodGroupMapping.toJobInfo(g, PodGroupPhase.Pending, List.of())
                        .slaWaitingTime())
                .isEqualTo(java.time.Duration.ofMinutes(90));

        g.setAnnotations(Map.of("sla-waiting-time", "soon"));
        assertThatThrownBy(() -> PodGroupMapping.check(g))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactly("annotations.sla-waiting-time"));
        g.setAnnotations(Map.of());
        assertThat(PodGroupMapping.toJobInfo(g, PodGroupPhase.Pending, List.of())
                        .slaWaitingTime())
                .isNull();
    }

    @Test
    void badPodGroupNamesItsFields() {
        PodGroup g = podGroup("ns1", "train", "q1", -1, "Pending", 0);
        g.getSpec().setMinResources(Map.of("cpu", "x"));
        assertThatThrownBy(() -> PodGroupMapping.check(g))
                .isInstanceOfSatisfying(
                        MappingException.class,
                        e -> assertThat(e.problems())
                                .extracting(p -> p.path())
                                .containsExactlyInAnyOrder("spec.minMember", "spec.minResources.cpu"));
    }

    @Test
    void podEventPhasesMapAsVolcanosGetTaskStatus() {
        PodEvent e = Records.podEvent("ns", "j", "p", "Pending", null, false);
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Pending);
        e.setNode("n1");
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Bound);
        e.setPhase("Running");
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Running);
        assertThat(PodEventMapping.status(e, true)).isEqualTo(TaskStatus.Releasing);
        e.setPhase("Succeeded");
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Succeeded);
        e.setPhase("Failed");
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Failed);
        e.setPhase("Unknown");
        assertThat(PodEventMapping.status(e, false)).isEqualTo(TaskStatus.Unknown);
        e.setDeleted(true);
        assertThat(PodEventMapping.status(e, false)).isNull();
    }
}
