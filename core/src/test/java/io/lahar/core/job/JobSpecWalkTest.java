package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.LifecyclePolicy;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.NetworkTopologySpec;
import io.lahar.core.api.PartitionPolicy;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.TaskDependsOn;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.api.VolumeSpec;
import io.lahar.core.job.plugins.JobPluginRegistry;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Walks Volcano's Job spec (batch.volcano.sh/v1alpha1, {@code job.go} of volcano.sh/apis) field by
 * field, and every job plugin Volcano registers (pkg/controllers/job/plugins/factory.go): each is
 * carried out — seen in the pods, the pod group or the other objects the controller asks for — or
 * refused by admission with a violation naming its path. The first test holds the lists to
 * Volcano's types, to Lahar's model and to the walk; the walk has one dynamic test per path.
 */
class JobSpecWalkTest {

    /** Volcano's JobSpec, its JSON names in its order. */
    static final List<String> JOB_SPEC = List.of(
            "schedulerName",
            "minAvailable",
            "volumes",
            "tasks",
            "policies",
            "plugins",
            "runningEstimate",
            "queue",
            "maxRetry",
            "ttlSecondsAfterFinished",
            "priorityClassName",
            "minSuccess",
            "networkTopology");

    static final List<String> VOLUME_SPEC = List.of("mountPath", "volumeClaimName", "volumeClaim");

    static final List<String> TASK_SPEC = List.of(
            "name",
            "replicas",
            "minAvailable",
            "template",
            "policies",
            "topologyPolicy",
            "maxRetry",
            "dependsOn",
            "partitionPolicy");

    static final List<String> LIFECYCLE_POLICY = List.of("action", "event", "events", "exitCode", "timeout");

    static final List<String> NETWORK_TOPOLOGY_SPEC = List.of("mode", "highestTierAllowed", "highestTierName");

    static final List<String> PARTITION_POLICY_SPEC =
            List.of("totalPartitions", "partitionSize", "networkTopology", "minPartitions");

    static final List<String> DEPENDS_ON = List.of("name", "iteration");

    /** The job plugins Volcano's controller registers. */
    static final List<String> PLUGINS = List.of("ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "hcclrank", "ray");

    static final String MAIN = """
            - name: main
              replicas: 2
              template:
                spec:
                  containers: [{name: c, image: img, resources: {requests: {cpu: "1", memory: 1Gi}}}]
            """;

    /** A first task of one pod named {@code first} and two workers: the layout the framework plugins expect. */
    static String roles(String first) {
        return """
                - name: %s
                  replicas: 1
                  template: {spec: {containers: [{name: %s, image: img}]}}
                - name: worker
                  replicas: 2
                  template: {spec: {containers: [{name: worker, image: img}]}}
                """.formatted(first, first);
    }

    static Job manifest(String spec, String tasks) {
        return Manifests.read(
                "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: walk, namespace: team}\nspec:\n"
                        + (spec.isEmpty() ? "" : spec.indent(2))
                        + (tasks == null ? "" : "  tasks:\n" + tasks.indent(2)),
                Job.class);
    }

    static List<Violation> refused(String spec) {
        return refused(spec, MAIN);
    }

    static List<Violation> refused(String spec, String tasks) {
        return JobAdmission.create(manifest(spec, tasks), AdmissionContext.freshInstall())
                .violations();
    }

    static void refusedAt(List<Violation> violations, String path, String message) {
        assertThat(violations).as(path).anySatisfy(v -> {
            assertThat(v.path()).isEqualTo(path);
            assertThat(v.message()).contains(message);
        });
    }

    /** One admitted job through the controller, against a world that does what each step says. */
    static final class Run {
        final JobController controller = new JobController();
        JobInfo state = JobInfo.empty();
        final List<WorldAction> actions = new ArrayList<>();
        final List<Transition> transitions = new ArrayList<>();
        long now;

        Run(String spec) {
            this(spec, MAIN);
        }

        Run(String spec, String tasks) {
            var admitted = JobAdmission.create(manifest(spec, tasks), AdmissionContext.freshInstall());
            assertThat(admitted.violations()).as(spec).isEmpty();
            apply(new Input.Submit(admitted.object(), 0));
        }

        Run apply(Input in) {
            Outcome o = controller.apply(state, in);
            state = o.state();
            actions.addAll(o.actions());
            transitions.addAll(o.transitions());
            return this;
        }

        /** The scheduler admits the gang; the pods it creates are seen Pending. */
        Run inqueue() {
            apply(new Input.PodGroupObserved(PodGroupPhase.Inqueue, ++now));
            return all(PodPhase.Pending, null);
        }

        /** Every pod not on its way out is seen in {@code phase}. */
        Run all(PodPhase phase, Integer exitCode) {
            for (JobPod p : List.copyOf(state.pods().values())) {
                if (!p.terminating() && p.phase() != phase) {
                    pod(p.name(), phase, exitCode, 0);
                }
            }
            return this;
        }

        Run pod(String name, PodPhase phase, Integer exitCode, int restarts) {
            JobPod p = state.pods().get(name);
            return apply(new Input.PodObserved(
                    name, p.task(), p.index(), p.version(), phase, exitCode, restarts, false, ++now));
        }

        /** The pods the controller deleted are gone. */
        Run gone() {
            for (JobPod p : List.copyOf(state.pods().values())) {
                if (p.terminating()) {
                    apply(new Input.PodObserved(
                            p.name(), p.task(), p.index(), p.version(), p.phase(), null, 0, true, ++now));
                }
            }
            return this;
        }

        Run tick(long time) {
            now = time;
            return apply(new Input.Tick(time));
        }

        /** The pods created, by name, last version first seen. */
        Map<String, ObjectNode> pods() {
            Map<String, ObjectNode> out = new LinkedHashMap<>();
            actions.forEach(a -> {
                if (a instanceof WorldAction.CreatePod c) {
                    out.putIfAbsent(c.name(), c.pod());
                }
            });
            return out;
        }

        ObjectNode pod(String name) {
            ObjectNode pod = pods().get(name);
            assertThat(pod).as(name + " among " + pods().keySet()).isNotNull();
            return pod;
        }

        Map<String, String> env(String pod) {
            Map<String, String> env = new LinkedHashMap<>();
            pod(pod).at("/spec/containers/0/env")
                    .forEach(e -> env.put(
                            e.path("name").asText(),
                            e.has("value")
                                    ? e.path("value").asText()
                                    : e.path("valueFrom").toString()));
            return env;
        }

        PodGroup.PodGroupSpec podGroup() {
            PodGroup last = null;
            for (WorldAction a : actions) {
                if (a instanceof WorldAction.UpsertPodGroup u) {
                    last = u.podGroup();
                }
            }
            assertThat(last).as("a pod group").isNotNull();
            return last.spec();
        }

        List<JobPhase> phases() {
            return transitions.stream().map(Transition::to).toList();
        }

        <T extends WorldAction> List<T> asked(Class<T> type) {
            return actions.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    static List<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents())
                .map(RecordComponent::getName)
                .toList();
    }

    @Test
    void everyFieldOfVolcanosJobSpecAndEveryPluginIsInTheModelAndWalked() {
        assertThat(components(JobSpec.class)).containsExactlyElementsOf(JOB_SPEC);
        assertThat(components(VolumeSpec.class)).containsExactlyElementsOf(VOLUME_SPEC);
        assertThat(components(TaskSpec.class)).containsExactlyElementsOf(TASK_SPEC);
        assertThat(components(LifecyclePolicy.class)).containsExactlyInAnyOrderElementsOf(LIFECYCLE_POLICY);
        assertThat(components(NetworkTopologySpec.class)).containsExactlyElementsOf(NETWORK_TOPOLOGY_SPEC);
        assertThat(components(PartitionPolicy.class)).containsExactlyInAnyOrderElementsOf(PARTITION_POLICY_SPEC);
        assertThat(components(TaskDependsOn.class)).containsExactlyElementsOf(DEPENDS_ON);
        assertThat(JobPluginRegistry.defaults().names()).containsExactlyInAnyOrderElementsOf(PLUGINS);

        List<String> paths = new ArrayList<>();
        JOB_SPEC.forEach(f -> paths.add("spec." + f));
        VOLUME_SPEC.forEach(f -> paths.add("spec.volumes[]." + f));
        TASK_SPEC.forEach(f -> paths.add("spec.tasks[]." + f));
        LIFECYCLE_POLICY.forEach(f -> paths.add("spec.policies[]." + f));
        NETWORK_TOPOLOGY_SPEC.forEach(f -> paths.add("spec.networkTopology." + f));
        PARTITION_POLICY_SPEC.forEach(f -> paths.add("spec.tasks[].partitionPolicy." + f));
        DEPENDS_ON.forEach(f -> paths.add("spec.tasks[].dependsOn." + f));
        PLUGINS.forEach(p -> paths.add("spec.plugins." + p));
        assertThat(walk().keySet()).containsExactlyElementsOf(paths);
    }

    @TestFactory
    Stream<DynamicTest> eachIsCarriedOutOrRefused() {
        return walk().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), e.getValue()::run));
    }

    interface Check {
        void run() throws Exception;
    }

    /** Path to its check, in the order of Volcano's types. */
    static Map<String, Check> walk() {
        Map<String, Check> w = new LinkedHashMap<>();
        jobSpec(w);
        volumes(w);
        tasks(w);
        policies(w);
        networkTopology(w);
        partitions(w);
        dependsOn(w);
        plugins(w);
        return w;
    }

    private static void jobSpec(Map<String, Check> w) {
        w.put("spec.schedulerName", () -> {
            Run run = new Run("schedulerName: gang-scheduler").inqueue();
            assertThat(run.pod("walk-main-0").at("/spec/schedulerName").asText())
                    .isEqualTo("gang-scheduler");
            refusedAt(refused("schedulerName: " + "s".repeat(64)), "spec.schedulerName", "no more than 63");
        });
        w.put("spec.minAvailable", () -> {
            assertThat(new Run("minAvailable: 1").podGroup().minMember()).isEqualTo(1);
            refusedAt(refused("minAvailable: 3"), "spec.minAvailable", "");
            refusedAt(refused("minAvailable: -1"), "spec.minAvailable", "must be >= 0");
        });
        w.put("spec.volumes", () -> {
            Run run = new Run("volumes: [{mountPath: /data, volumeClaimName: shared}]").inqueue();
            assertThat(run.pod("walk-main-1")
                            .at("/spec/volumes/0/persistentVolumeClaim/claimName")
                            .asText())
                    .isEqualTo("shared");
            refusedAt(refused("volumes: [null]"), "spec.volumes[0]", "required");
        });
        w.put("spec.tasks", () -> {
            assertThat(new Run("").inqueue().pods().keySet()).containsExactly("walk-main-0", "walk-main-1");
            refusedAt(refused("tasks: []", null), "spec.tasks", "No task specified");
        });
        w.put("spec.policies", () -> {
            Run run = new Run("policies: [{event: PodFailed, action: AbortJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 1, 0);
            assertThat(run.transitions.getLast().action()).isEqualTo(Action.ABORT_JOB.value());
            assertThat(run.transitions.getLast().policy()).isEqualTo("spec.policies[0]");
            refusedAt(
                    refused("policies: [{event: PodFailed, action: AbortJob}, {event: PodFailed, action: RestartJob}]"),
                    "spec.policies[1].event",
                    "duplicate event");
        });
        w.put("spec.plugins", () -> {
            Run run = new Run("plugins: {env: []}").inqueue();
            assertThat(run.env("walk-main-1")).containsEntry("VK_TASK_INDEX", "1");
            refusedAt(refused("plugins: {gang: []}"), "spec.plugins.gang", "unable to find job plugin");
        });
        // Volcano's API has it and nothing in Volcano reads it: refused rather than accepted and ignored.
        w.put("spec.runningEstimate", () -> {
            refusedAt(refused("runningEstimate: 1h"), "spec.runningEstimate", "not carried out");
            refusedAt(refused("runningEstimate: soon"), "spec.runningEstimate", "not carried out");
        });
        w.put("spec.queue", () -> {
            Run run = new Run("queue: default").inqueue();
            assertThat(run.podGroup().queue()).isEqualTo("default");
            assertThat(run.pod("walk-main-0")
                            .at("/metadata/labels/volcano.sh~1queue-name")
                            .asText())
                    .isEqualTo("default");
            refusedAt(refused("queue: nowhere"), "spec.queue", "nowhere");
        });
        w.put("spec.maxRetry", () -> {
            Run once = failEachRun("maxRetry: 1\npolicies: [{event: PodFailed, action: RestartJob}]", 1);
            assertThat(once.phases()).endsWith(JobPhase.Restarting, JobPhase.Failed);
            Run twice = failEachRun("maxRetry: 2\npolicies: [{event: PodFailed, action: RestartJob}]", 1);
            assertThat(twice.phases()).doesNotContain(JobPhase.Failed);
            assertThat(failEachRun("maxRetry: 2\npolicies: [{event: PodFailed, action: RestartJob}]", 2)
                            .phases())
                    .endsWith(JobPhase.Failed);
            refusedAt(refused("maxRetry: -1"), "spec.maxRetry", "must be >= 0");
        });
        w.put("spec.ttlSecondsAfterFinished", () -> {
            Run run = new Run("ttlSecondsAfterFinished: 60").inqueue().all(PodPhase.Succeeded, 0);
            assertThat(run.state.phase()).isEqualTo(JobPhase.Completed);
            long finished = run.now;
            run.tick(finished + 59_000);
            assertThat(run.asked(WorldAction.DeleteJob.class)).isEmpty();
            run.tick(finished + 61_000);
            assertThat(run.asked(WorldAction.DeleteJob.class)).hasSize(1);
            refusedAt(refused("ttlSecondsAfterFinished: -1"), "spec.ttlSecondsAfterFinished", "must be >= 0");
        });
        w.put("spec.priorityClassName", () -> {
            Run run = new Run("priorityClassName: high").inqueue();
            assertThat(run.podGroup().priorityClassName()).isEqualTo("high");
            assertThat(run.pod("walk-main-0").at("/spec/priorityClassName").asText())
                    .isEqualTo("high");
            // Any name is carried: whether the class exists is the cluster's answer to the pod, as in Volcano.
        });
        w.put("spec.minSuccess", () -> {
            Run run = new Run("minSuccess: 1").inqueue().all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Succeeded, 0, 0);
            assertThat(run.phases()).endsWith(JobPhase.Completed);
            refusedAt(refused("minSuccess: 0"), "spec.minSuccess", "must be >= 1");
            refusedAt(refused("minSuccess: 3"), "spec.minSuccess", "");
        });
        // Refused (decision 046): Lahar's scheduler has no HyperNodes to keep the pods within.
        w.put(
                "spec.networkTopology",
                () -> refusedAt(
                        refused("networkTopology: {mode: hard, highestTierAllowed: 1}"),
                        "spec.networkTopology",
                        "HyperNodes"));
    }

    /** A job whose pod fails in each of {@code runs} runs, the world confirming every deletion. */
    static Run failEachRun(String spec, int runs) {
        Run run = new Run(spec).inqueue().all(PodPhase.Running, null);
        for (int i = 0; i < runs; i++) {
            String first = run.state.pods().keySet().iterator().next();
            run.pod(first, PodPhase.Failed, 1, 0).gone();
            if (run.state.phase() == JobPhase.Failed) {
                break;
            }
            run.inqueue().all(PodPhase.Running, null);
        }
        return run;
    }

    private static void volumes(Map<String, Check> w) {
        w.put("spec.volumes[].mountPath", () -> {
            Run run = new Run("volumes: [{mountPath: /data, volumeClaimName: shared}]").inqueue();
            assertThat(run.pod("walk-main-0")
                            .at("/spec/containers/0/volumeMounts/0/mountPath")
                            .asText())
                    .isEqualTo("/data");
            refusedAt(
                    refused("volumes: [{mountPath: \"a:b\", volumeClaimName: shared}]"),
                    "spec.volumes[0].mountPath",
                    "must not contain ':'");
            refusedAt(refused("volumes: [{volumeClaimName: shared}]"), "spec.volumes[0].mountPath", "required");
        });
        w.put("spec.volumes[].volumeClaimName", () -> {
            Run run = new Run("volumes: [{mountPath: /data, volumeClaimName: shared}]").inqueue();
            assertThat(run.pod("walk-main-0")
                            .at("/spec/volumes/0/persistentVolumeClaim/claimName")
                            .asText())
                    .isEqualTo("shared");
            run.apply(new Input.Delete(++run.now));
            assertThat(run.asked(WorldAction.CreatePersistentVolumeClaim.class))
                    .as("a claim the job is given is neither made nor deleted")
                    .isEmpty();
            assertThat(run.asked(WorldAction.DeleteObject.class))
                    .noneMatch(d -> d.kind().equals("PersistentVolumeClaim"));
            refusedAt(
                    refused("volumes: [{mountPath: /data, volumeClaimName: Shared_Data}]"),
                    "spec.volumes[0].volumeClaimName",
                    "invalid volumeClaimName");
        });
        // Volcano's createJobIOIfNotExist: the claim made once, owned by the job, gone with it.
        w.put("spec.volumes[].volumeClaim", () -> {
            Run run = new Run("volumes: [{mountPath: /data, volumeClaim: {accessModes: [ReadWriteOnce],"
                            + " resources: {requests: {storage: 1Gi}}}}]")
                    .inqueue();
            assertThat(run.asked(WorldAction.CreatePersistentVolumeClaim.class))
                    .singleElement()
                    .satisfies(c -> {
                        assertThat(c.name()).isEqualTo("walk-volume-0");
                        assertThat(c.spec().at("/resources/requests/storage").asText())
                                .isEqualTo("1Gi");
                    });
            assertThat(run.pod("walk-main-0")
                            .at("/spec/volumes/0/persistentVolumeClaim/claimName")
                            .asText())
                    .isEqualTo("walk-volume-0");
            run.apply(new Input.Delete(++run.now));
            assertThat(run.asked(WorldAction.DeleteObject.class))
                    .contains(new WorldAction.DeleteObject("PersistentVolumeClaim", "walk-volume-0"));
            refusedAt(
                    refused("volumes: [{mountPath: /data, volumeClaimName: shared, volumeClaim: {}}]"),
                    "spec.volumes[0].volumeClaimName",
                    "conflict");
        });
    }

    private static void tasks(Map<String, Check> w) {
        w.put("spec.tasks[].name", () -> {
            JsonNode pod = new Run("").inqueue().pod("walk-main-0");
            assertThat(pod.at("/metadata/labels/volcano.sh~1task-spec").asText())
                    .isEqualTo("main");
            refusedAt(refused("", MAIN + MAIN), "spec.tasks[1].name", "duplicate task name");
        });
        w.put("spec.tasks[].replicas", () -> {
            assertThat(new Run("", MAIN.replace("replicas: 2", "replicas: 3"))
                            .inqueue()
                            .pods()
                            .keySet())
                    .containsExactly("walk-main-0", "walk-main-1", "walk-main-2");
            refusedAt(refused("", MAIN.replace("replicas: 2", "replicas: -1")), "spec.tasks[0].replicas", ">= 0");
        });
        w.put("spec.tasks[].minAvailable", () -> {
            assertThat(new Run("", MAIN + "  minAvailable: 1").podGroup().minTaskMember())
                    .containsEntry("main", 1);
            refusedAt(refused("", MAIN + "  minAvailable: 3"), "spec.tasks[0].minAvailable", "not be greater");
        });
        w.put("spec.tasks[].template", () -> {
            JsonNode pod = new Run("").inqueue().pod("walk-main-0");
            assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("img");
            refusedAt(
                    refused("", "- {name: main, replicas: 1, template: {spec: {containers: []}}}"),
                    "spec.tasks[0].template.spec.containers",
                    "");
        });
        w.put("spec.tasks[].policies", () -> {
            Run run = new Run(
                            "policies: [{event: PodFailed, action: RestartJob}]",
                            MAIN + "  policies: [{event: PodFailed, action: AbortJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-1", PodPhase.Failed, 1, 0);
            assertThat(run.transitions.getLast().action())
                    .as("the task's policy overrides the job's")
                    .isEqualTo(Action.ABORT_JOB.value());
            assertThat(run.transitions.getLast().policy()).isEqualTo("spec.tasks[0].policies[0]");
            refusedAt(
                    refused("", MAIN + "  policies: [{event: PodFailed, exitCode: 3, action: AbortJob}]"),
                    "spec.tasks[0].policies[0]",
                    "both event and exitCode");
        });
        w.put("spec.tasks[].topologyPolicy", () -> {
            String guaranteed = """
                    - name: main
                      replicas: 1
                      topologyPolicy: single-numa-node
                      template:
                        spec:
                          containers: [{name: c, image: img, resources: {requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "2", memory: 1Gi}}}]
                    """;
            JsonNode pod = new Run("", guaranteed).inqueue().pod("walk-main-0");
            assertThat(pod.at("/metadata/annotations/volcano.sh~1numa-topology-policy")
                            .asText())
                    .isEqualTo("single-numa-node");
            refusedAt(
                    refused("", guaranteed.replace("single-numa-node", "everywhere")),
                    "spec.tasks[0].topologyPolicy",
                    "everywhere");
            refusedAt(refused("", MAIN + "  topologyPolicy: restricted"), "spec.tasks[0].topologyPolicy", "Guaranteed");
        });
        w.put("spec.tasks[].maxRetry", () -> {
            String tasks = MAIN + "  maxRetry: 1\n  policies: [{event: TaskFailed, action: TerminateJob}]";
            Run run = new Run("", tasks).inqueue().all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Running, null, 1);
            assertThat(run.phases())
                    .as("one container restart is within maxRetry 1")
                    .doesNotContain(JobPhase.Terminating);
            run.pod("walk-main-1", PodPhase.Running, null, 1);
            assertThat(run.transitions).last().satisfies(t -> {
                assertThat(t.event())
                        .as("the task's pods restarted past its maxRetry")
                        .isEqualTo("TaskFailed");
                assertThat(t.to()).isEqualTo(JobPhase.Terminating);
            });
            refusedAt(refused("", MAIN + "  maxRetry: -1"), "spec.tasks[0].maxRetry", "must be >= 0");
        });
        w.put("spec.tasks[].dependsOn", () -> {
            String tasks = roles("master") + "  dependsOn: {name: [master]}";
            Run run = new Run("", tasks).inqueue();
            assertThat(run.pods().keySet()).as("workers wait for the master").containsExactly("walk-master-0");
            run.all(PodPhase.Running, null);
            assertThat(run.pods().keySet()).contains("walk-worker-0", "walk-worker-1");
            refusedAt(
                    refused("", roles("master") + "  dependsOn: {name: [ghost]}"),
                    "spec.tasks[1].dependsOn.name[0]",
                    "not found");
        });
        // Partitions are sub-gangs (decision 046): the pods' partition labels (JobPods.create) and the
        // pod group's subGroupPolicy (PodGroups.subGroupPolicy), which the scheduler's gang plugin counts.
        w.put("spec.tasks[].partitionPolicy", () -> {
            String tasks = MAIN.replace("replicas: 2", "replicas: 4")
                    + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 1}";
            Run run = new Run("", tasks).inqueue();
            assertThat(run.pod("walk-main-3")
                            .at("/metadata/labels/volcano.sh~1task-partition-id")
                            .asText())
                    .isEqualTo("1");
            assertThat(run.podGroup().subGroupPolicy()).singleElement().satisfies(g -> {
                assertThat(g.name()).isEqualTo("main");
                assertThat(g.subGroupSize()).isEqualTo(2);
                assertThat(g.minSubGroups()).isEqualTo(1);
                assertThat(g.matchLabelKeys()).containsExactly("volcano.sh/task-partition-id");
            });
            refusedAt(
                    refused("", MAIN + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2}"),
                    "spec.tasks[0].partitionPolicy",
                    "");
        });
    }

    private static void policies(Map<String, Check> w) {
        w.put("spec.policies[].action", () -> {
            Run run = new Run("policies: [{event: PodFailed, action: TerminateJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 1, 0);
            assertThat(run.phases()).contains(JobPhase.Terminating);
            refusedAt(refused("policies: [{event: PodFailed, action: Explode}]"), "spec.policies[0].action", "Explode");
        });
        w.put("spec.policies[].event", () -> {
            Run run = new Run("policies: [{event: PodEvicted, action: AbortJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 1, 0);
            assertThat(run.phases()).as("PodFailed is not PodEvicted").doesNotContain(JobPhase.Aborting);
            JobPod other = run.state.pods().get("walk-main-1");
            run.apply(new Input.PodObserved(
                    other.name(),
                    other.task(),
                    other.index(),
                    other.version(),
                    PodPhase.Running,
                    null,
                    0,
                    true,
                    ++run.now));
            assertThat(run.transitions).as("a pod deleted by others").anySatisfy(t -> {
                assertThat(t.event()).isEqualTo("PodEvicted");
                assertThat(t.to()).isEqualTo(JobPhase.Aborting);
            });
            refusedAt(
                    refused("policies: [{event: Lightning, action: AbortJob}]"), "spec.policies[0].event", "Lightning");
        });
        w.put("spec.policies[].events", () -> {
            Run run = new Run("policies: [{events: [PodEvicted, PodFailed], action: AbortJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 1, 0);
            assertThat(run.phases()).contains(JobPhase.Aborting);
            refusedAt(
                    refused("policies: [{events: [PodFailed, PodFailed], action: AbortJob}]"),
                    "spec.policies[0].events[1]",
                    "duplicate event");
        });
        w.put("spec.policies[].exitCode", () -> {
            Run run = new Run("policies: [{exitCode: 3, action: AbortJob}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 2, 0);
            assertThat(run.phases()).doesNotContain(JobPhase.Aborting);
            run.pod("walk-main-1", PodPhase.Failed, 3, 0);
            assertThat(run.phases()).contains(JobPhase.Aborting);
            refusedAt(refused("policies: [{exitCode: 0, action: AbortJob}]"), "spec.policies[0].exitCode", "0 is not");
        });
        w.put("spec.policies[].timeout", () -> {
            Run run = new Run("policies: [{event: PodFailed, action: AbortJob, timeout: 30s}]")
                    .inqueue()
                    .all(PodPhase.Running, null);
            run.pod("walk-main-0", PodPhase.Failed, 1, 0);
            long failed = run.now;
            assertThat(run.phases()).doesNotContain(JobPhase.Aborting);
            run.tick(failed + 31_000);
            assertThat(run.phases()).contains(JobPhase.Aborting);
            refusedAt(
                    refused("policies: [{event: PodFailed, action: AbortJob, timeout: later}]"),
                    "spec.policies[0].timeout",
                    "");
        });
    }

    // Refused, every field (decision 046): Lahar's scheduler has no HyperNodes (network tiers).
    private static void networkTopology(Map<String, Check> w) {
        w.put("spec.networkTopology.mode", () -> {
            refusedAt(refused("networkTopology: {mode: soft}"), "spec.networkTopology", "HyperNodes");
            refusedAt(refused("networkTopology: {mode: loose}"), "spec.networkTopology.mode", "loose");
        });
        w.put("spec.networkTopology.highestTierAllowed", () -> {
            refusedAt(refused("networkTopology: {highestTierAllowed: 2}"), "spec.networkTopology", "HyperNodes");
            refusedAt(
                    refused("networkTopology: {mode: hard, highestTierAllowed: -1}"),
                    "spec.networkTopology.highestTierAllowed",
                    ">= 0");
        });
        w.put("spec.networkTopology.highestTierName", () -> {
            refusedAt(refused("networkTopology: {highestTierName: rack}"), "spec.networkTopology", "HyperNodes");
            refusedAt(
                    refused("networkTopology: {highestTierAllowed: 1, highestTierName: rack}"),
                    "spec.networkTopology",
                    "simultaneously");
        });
    }

    // The partition id on each pod (JobPods.create), the sub-gangs of the pod group
    // (PodGroups.subGroupPolicy) and the gang's size from minPartitions (JobDefaults); a partition's
    // own networkTopology is refused as the job's is (decision 046).
    private static void partitions(Map<String, Check> w) {
        String four = MAIN.replace("replicas: 2", "replicas: 4");
        w.put("spec.tasks[].partitionPolicy.totalPartitions", () -> {
            Run run = new Run("", four + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2}").inqueue();
            assertThat(run.pods()).hasSize(4);
            refusedAt(
                    refused("", four + "  partitionPolicy: {totalPartitions: 0, partitionSize: 2}"),
                    "spec.tasks[0].partitionPolicy.totalPartitions",
                    "greater than 0");
        });
        w.put("spec.tasks[].partitionPolicy.partitionSize", () -> {
            Run run = new Run("", four + "  partitionPolicy: {totalPartitions: 4, partitionSize: 1}").inqueue();
            assertThat(run.pod("walk-main-2")
                            .at("/metadata/labels/volcano.sh~1task-partition-id")
                            .asText())
                    .isEqualTo("2");
            assertThat(run.podGroup().subGroupPolicy().getFirst().subGroupSize())
                    .isEqualTo(1);
            refusedAt(
                    refused("", four + "  partitionPolicy: {totalPartitions: 2, partitionSize: 0}"),
                    "spec.tasks[0].partitionPolicy.partitionSize",
                    "greater than 0");
        });
        w.put("spec.tasks[].partitionPolicy.networkTopology", () -> {
            refusedAt(
                    refused(
                            "",
                            four
                                    + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2, networkTopology: {mode: hard}}"),
                    "spec.tasks[0].partitionPolicy.networkTopology",
                    "HyperNodes");
            refusedAt(
                    refused(
                            "",
                            four
                                    + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2, networkTopology: {mode: any}}"),
                    "spec.tasks[0].partitionPolicy.networkTopology.mode",
                    "any");
        });
        w.put("spec.tasks[].partitionPolicy.minPartitions", () -> {
            Run run = new Run("", four + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 1}");
            assertThat(run.podGroup().minTaskMember()).containsEntry("main", 2);
            assertThat(run.podGroup().subGroupPolicy().getFirst().minSubGroups())
                    .isEqualTo(1);
            refusedAt(
                    refused("", four + "  partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 3}"),
                    "spec.tasks[0].partitionPolicy.minPartitions",
                    "between 0 and totalPartitions");
        });
    }

    private static void dependsOn(Map<String, Check> w) {
        w.put("spec.tasks[].dependsOn.name", () -> {
            Run run = new Run("", roles("master") + "  dependsOn: {name: [master]}").inqueue();
            assertThat(run.pods().keySet()).containsExactly("walk-master-0");
            refusedAt(refused("", roles("master") + "  dependsOn: {name: [worker]}"), "spec.tasks", "worker -> worker");
        });
        w.put("spec.tasks[].dependsOn.iteration", () -> {
            String three = roles("master")
                    + "- {name: ps, replicas: 1, template: {spec: {containers: [{name: ps, image: img}]}},"
                    + " dependsOn: {name: [master, worker], iteration: %s}}\n";
            Run any = new Run("", three.formatted("any")).inqueue();
            Run all = new Run("", three.formatted("all")).inqueue();
            any.pod("walk-master-0", PodPhase.Running, null, 0);
            all.pod("walk-master-0", PodPhase.Running, null, 0);
            assertThat(any.pods()).containsKey("walk-ps-0");
            assertThat(all.pods()).doesNotContainKey("walk-ps-0");
            refusedAt(refused("", three.formatted("some")), "spec.tasks[2].dependsOn.iteration", "some");
        });
    }

    private static void plugins(Map<String, Check> w) {
        w.put("spec.plugins.ssh", () -> {
            Run run = new Run("plugins: {ssh: []}").inqueue();
            assertThat(run.asked(WorldAction.RequestSshSecret.class))
                    .extracting(WorldAction.RequestSshSecret::name)
                    .containsExactly("walk-ssh");
            assertThat(run.pod("walk-main-0").at("/spec/volumes").findValuesAsText("secretName"))
                    .contains("walk-ssh");
            refusedAt(refused("plugins: {ssh: [--nope]}"), "spec.plugins.ssh", "nope");
        });
        w.put("spec.plugins.env", () -> {
            assertThat(new Run("plugins: {env: []}").inqueue().env("walk-main-1"))
                    .containsEntry("VK_TASK_INDEX", "1")
                    .containsEntry("VC_TASK_INDEX", "1");
            refusedAt(refused("plugins: {env: [--x=1]}"), "spec.plugins.env", "");
        });
        w.put("spec.plugins.svc", () -> {
            Run run = new Run("plugins: {svc: []}").inqueue();
            assertThat(run.pod("walk-main-1").at("/spec/hostname").asText()).isEqualTo("walk-main-1");
            assertThat(run.pod("walk-main-1").at("/spec/subdomain").asText()).isEqualTo("walk");
            assertThat(run.asked(WorldAction.CreateObject.class))
                    .extracting(o -> o.kind() + " " + o.name())
                    .containsExactlyInAnyOrder("Service walk", "NetworkPolicy walk");
            assertThat(run.asked(WorldAction.CreateConfigMap.class))
                    .extracting(WorldAction.CreateConfigMap::name)
                    .containsExactly("walk-svc");
            assertThat(new Run("plugins: {svc: [--disable-network-policy]}").asked(WorldAction.CreateObject.class))
                    .extracting(WorldAction.CreateObject::kind)
                    .containsExactly("Service");
            refusedAt(refused("plugins: {svc: [--nope]}"), "spec.plugins.svc", "nope");
        });
        w.put("spec.plugins.tensorflow", () -> {
            assertThat(new Run("plugins: {tensorflow: []}", roles("ps"))
                            .inqueue()
                            .env("walk-worker-1"))
                    .containsKey("TF_CONFIG");
            refusedAt(refused("plugins: {tensorflow: [--port=x]}", roles("ps")), "spec.plugins.tensorflow", "");
        });
        w.put("spec.plugins.mpi", () -> {
            assertThat(new Run("plugins: {mpi: []}", roles("master")).inqueue().env("walk-master-0"))
                    .containsKey("MPI_HOST");
            refusedAt(refused("plugins: {mpi: []}", roles("boss")), "spec.plugins.mpi", "master");
        });
        w.put("spec.plugins.pytorch", () -> {
            assertThat(new Run("plugins: {pytorch: []}", roles("master"))
                            .inqueue()
                            .env("walk-worker-1"))
                    .containsKeys("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK");
            refusedAt(refused("plugins: {pytorch: []}", roles("boss")), "spec.plugins.pytorch", "master");
        });
        w.put("spec.plugins.hcclrank", () -> {
            assertThat(new Run("plugins: {pytorch: [], hcclrank: []}", roles("master"))
                            .inqueue()
                            .pod("walk-worker-0")
                            .at("/metadata/annotations/hccl~1rankIndex")
                            .asText())
                    .isEqualTo("1");
            refusedAt(
                    refused("plugins: {hcclrank: []}", roles("boss").replace("worker", "helper")),
                    "spec.plugins.hcclrank",
                    "");
        });
        w.put("spec.plugins.ray", () -> {
            String tasks = roles("head");
            assertThat(new Run("plugins: {ray: []}", tasks).asked(WorldAction.CreateObject.class))
                    .extracting(WorldAction.CreateObject::name)
                    .contains("walk-head-svc");
            refusedAt(refused("plugins: {ray: []}", roles("boss")), "spec.plugins.ray", "head");
        });
    }
}
