package io.lahar.core.scheduling.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import org.junit.jupiter.api.Test;

class SnapshotReaderTest {

    @Test
    void readsAWholeSnapshotAndSchedulesIt() {
        Snapshot s = SnapshotReader.read("""
                nodes:
                - name: gpu-1
                  allocatable: {cpu: 8, memory: 32Gi, nvidia.com/gpu: 4}
                  otherUsed: {cpu: 500m}
                  otherPods: 1
                  labels: {zone: a, gen: "5"}
                  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
                - name: cpu-1
                  allocatable: {cpu: 4, memory: 8Gi}
                queues:
                - {name: research, weight: 3, capability: {cpu: 8}, reclaimable: false}
                podGroups:
                - name: train
                  queue: research
                  minMember: 2
                  minTaskMember: {ps: 1}
                  phase: Inqueue
                  tasks:
                  - name: train-ps-0
                    role: ps
                    resources: {cpu: 1, memory: 1Gi}
                    status: Running
                    node: cpu-1
                  - name: train-worker-0
                    role: worker
                    resources: {cpu: 2, nvidia.com/gpu: 1}
                    affinity: [{matchExpressions: [{key: gen, operator: Gt, values: ["4"]}]}]
                    tolerations: [{key: dedicated, operator: Exists}]
                """);
        assertThat(s.nodes()).hasSize(2);
        assertThat(s.nodes().get(0).otherUsed().milliCpu()).isEqualTo(500);
        assertThat(s.queues().get(0).reclaimable()).isFalse();
        assertThat(s.queues().get(0).capability().milliCpu()).isEqualTo(8000);
        JobInfo j = s.jobs().get(0);
        assertThat(j.minResources().milliCpu()).isEqualTo(3000);
        assertThat(j.tasks().get(0).status()).isEqualTo(TaskStatus.Running);
        assertThat(s.validate()).isEmpty();
        SessionResult r = new Scheduler(io.lahar.core.scheduling.framework.SchedulerConf.defaults()).schedule(s);
        assertThat(r.bindings()).singleElement().satisfies(b -> {
            assertThat(b.task()).isEqualTo("train-worker-0");
            assertThat(b.node()).isEqualTo("gpu-1");
        });
    }

    @Test
    void readsLabelsPodSpecsImagesAndNamespaces() {
        Snapshot s = SnapshotReader.read("""
                namespaces:
                - {name: team-a, labels: {team: a}}
                nodes:
                - name: n1
                  allocatable: {cpu: 4}
                  images: [{names: ["web:1"], sizeBytes: 1000}]
                podGroups:
                - name: web
                  namespace: team-a
                  tasks:
                  - name: web-0
                    labels: {app: web}
                    pod:
                      affinity:
                        podAntiAffinity:
                          requiredDuringSchedulingIgnoredDuringExecution:
                          - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
                      topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,
                        labelSelector: {matchLabels: {app: web}}}]
                      containers: [{image: "web:1", ports: [{containerPort: 80, hostPort: 80}]}]
                """);
        assertThat(s.namespaceLabels("team-a"))
                .containsEntry("team", "a")
                .containsEntry("kubernetes.io/metadata.name", "team-a");
        assertThat(s.nodes().get(0).images())
                .singleElement()
                .satisfies(i -> assertThat(i.sizeBytes()).isEqualTo(1000));
        assertThat(s.nodes().get(0).labels())
                .as("the kubelet's hostname label")
                .containsEntry("kubernetes.io/hostname", "n1");
        PodSpec spec = s.jobs().get(0).tasks().get(0).spec();
        assertThat(spec.labels()).containsEntry("app", "web");
        assertThat(spec.requiredAntiAffinity()).hasSize(1);
        assertThat(spec.topologySpread())
                .singleElement()
                .satisfies(c -> assertThat(c.hard()).isFalse());
        assertThat(spec.hostPorts())
                .singleElement()
                .satisfies(p -> assertThat(p.port()).isEqualTo(80));
        assertThat(spec.images()).containsExactly("web:1");
    }

    @Test
    void aMalformedPodSpecIsAProblemWithItsPath() {
        assertThatThrownBy(() -> SnapshotReader.read("""
                podGroups:
                - name: web
                  tasks:
                  - name: web-0
                    pod:
                      affinity:
                        podAffinity:
                          preferredDuringSchedulingIgnoredDuringExecution:
                          - {weight: 300, podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: zone}}
                """))
                .isInstanceOfSatisfying(
                        SnapshotReader.InvalidSnapshotException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::toString)
                                .containsExactly(
                                        "podGroups[0].tasks[0].pod.affinity.podAffinity."
                                                + "preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 300: must be in the range 1-100"));
    }

    @Test
    void readsATasksCooldownAndScheduledTimeForTheCdpPlugin() {
        Snapshot s = SnapshotReader.read("""
                podGroups:
                - name: web
                  tasks:
                  - {name: web-0, status: Running, node: n1, cooldownTime: 10m, scheduledTime: "2026-01-01T11:55:00Z"}
                  - {name: web-1}
                """);
        TaskInfo t = s.jobs().get(0).tasks().get(0);
        assertThat(t.cooldownTime()).isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(t.scheduledTime()).isEqualTo(java.time.Instant.parse("2026-01-01T11:55:00Z"));
        assertThat(s.jobs().get(0).tasks().get(1).cooldownTime()).isNull();
        assertThatThrownBy(() -> SnapshotReader.read("""
                podGroups:
                - name: web
                  tasks:
                  - {name: web-0, cooldownTime: 600abcde, scheduledTime: yesterday}
                """))
                .isInstanceOfSatisfying(
                        SnapshotReader.InvalidSnapshotException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactlyInAnyOrder(
                                        "podGroups[0].tasks[0].cooldownTime", "podGroups[0].tasks[0].scheduledTime"));
    }

    @Test
    void listsEveryProblemWithItsPath() {
        assertThatThrownBy(() -> SnapshotReader.read("""
                nodes:
                - name: n1
                  allocatable: {cpu: lots}
                  colour: red
                - allocatable: {}
                queues: {name: q}
                podGroups:
                - name: j
                  minMember: two
                  phase: Waiting
                  tasks:
                  - name: t
                    status: Running
                    tolerations: [{operator: Maybe}]
                """))
                .isInstanceOfSatisfying(
                        SnapshotReader.InvalidSnapshotException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactlyInAnyOrder(
                                        "nodes[0].allocatable",
                                        "nodes[0].colour",
                                        "nodes[1].name",
                                        "queues",
                                        "podGroups[0].minMember",
                                        "podGroups[0].phase",
                                        "podGroups[0].tasks[0].tolerations[0].operator"))
                .hasMessageContaining("cpu: invalid quantity \"lots\"")
                .hasMessageContaining("unknown value \"Waiting\"");
        assertThatThrownBy(() -> SnapshotReader.read("[1, 2")).hasMessageContaining("not YAML or JSON");
    }

    @Test
    void readsWhatTheTdmPluginReads() {
        Snapshot s = SnapshotReader.read("""
                nodes:
                - {name: n1, allocatable: {cpu: 1}, labels: {volcano.sh/revocable-zone: rz1}}
                podGroups:
                - name: g
                  preemptable: true
                  budget: {maxUnavailable: 30%}
                  tasks:
                  - {name: g-0, revocableZone: "*"}
                  - {name: g-1}
                """);
        assertThat(s.nodes().getFirst().revocableZone()).isEqualTo("rz1");
        JobInfo g = s.jobs().getFirst();
        assertThat(g.preemptable()).isTrue();
        assertThat(g.budget()).isEqualTo(new DisruptionBudget("", "30%"));
        assertThat(g.tasks()).extracting(TaskInfo::revocableZone).containsExactly("*", "");
        assertThatThrownBy(() -> SnapshotReader.read("""
                        podGroups:
                        - name: g
                          budget: {minAvailable: "0", maxUnavailable: "1"}
                          tasks: [{name: g-0, revocableZone: rz1}]
                        """))
                .isInstanceOfSatisfying(
                        SnapshotReader.InvalidSnapshotException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::toString)
                                .containsExactlyInAnyOrder(
                                        "podGroups[0].budget.minAvailable: must be a positive integer, got \"0\"",
                                        "podGroups[0].budget: only one of minAvailable and maxUnavailable",
                                        "podGroups[0].tasks[0].revocableZone: expected \"*\" (any revocable zone), got \"rz1\""));
    }
}
