package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.ONE_TASK;
import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.job;
import static io.lahar.core.admission.Fixtures.messages;
import static io.lahar.core.admission.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.QueueState;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.plugins.JobPluginRegistry;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JobAdmissionTest {

    static final AdmissionContext FRESH = AdmissionContext.freshInstall();

    static AdmissionResult<Job> admit(Job job) {
        return JobAdmission.create(job, FRESH);
    }

    @Nested
    class Defaults {

        @Test
        void queueSchedulerMaxRetryAndMinAvailables() {
            Job j = assertAccepted(admit(job(ONE_TASK)));
            JobSpec s = j.spec();
            assertThat(s.queue()).isEqualTo("default");
            assertThat(s.schedulerName()).isEqualTo("volcano");
            assertThat(s.maxRetry()).isEqualTo(3);
            assertThat(s.minAvailable()).isEqualTo(2);
            assertThat(s.tasks().get(0).minAvailable()).isEqualTo(2);
            assertThat(s.tasks().get(0).maxRetry()).isEqualTo(3);
        }

        @Test
        void givenValuesAreKept() {
            Job j = assertAccepted(admit(job("""
                    queue: default
                    schedulerName: other
                    maxRetry: 7
                    minAvailable: 1
                    """ + ONE_TASK)));
            assertThat(j.spec().schedulerName()).isEqualTo("other");
            assertThat(j.spec().maxRetry()).isEqualTo(7);
            assertThat(j.spec().minAvailable()).isEqualTo(1);
        }

        @Test
        void jobMinAvailableIsTheSumOfTaskMinAvailable() {
            Job j = assertAccepted(admit(job("tasks:\n"
                    + task("a", 5).replace("replicas: 5", "replicas: 5\n  minAvailable: 1") + task("b", 2))));
            assertThat(j.spec().tasks()).extracting(TaskSpec::minAvailable).containsExactly(1, 2);
            assertThat(j.spec().minAvailable()).isEqualTo(3);
        }

        @Test
        void unnamedTasksGetDefaultNames() {
            Job j = assertAccepted(admit(job("tasks:\n" + task("", 1).replace("- name: \n  ", "- ")
                    + task("", 1).replace("- name: \n  ", "- "))));
            assertThat(j.spec().tasks()).extracting(TaskSpec::name).containsExactly("default0", "default1");
        }

        @Test
        void mpiImpliesSvcAndSsh() {
            Job j = assertAccepted(admit(job("plugins:\n  mpi: [\"--master=master\", \"--worker=worker\"]\ntasks:\n"
                    + task("master", 1) + task("worker", 2))));
            assertThat(j.spec().plugins()).containsOnlyKeys("mpi", "svc", "ssh");
            assertThat(j.spec().plugins().get("svc")).isEmpty();
        }

        @Test
        void tensorflowAndPytorchImplySvc() {
            assertThat(JobDefaults.apply(job("plugins:\n  tensorflow: []\n" + ONE_TASK))
                            .spec()
                            .plugins())
                    .containsOnlyKeys("tensorflow", "svc");
            assertThat(JobDefaults.apply(job(
                                    "plugins:\n  pytorch: []\n  svc: [\"--disable-network-policy=true\"]\n" + ONE_TASK))
                            .spec()
                            .plugins()
                            .get("svc"))
                    .containsExactly("--disable-network-policy=true");
        }

        @Test
        void hostNetworkGetsClusterFirstWithHostNet() {
            Job j = assertAccepted(
                    admit(job(ONE_TASK.replace("      containers:", "      hostNetwork: true\n      containers:"))));
            assertThat(j.spec()
                            .tasks()
                            .get(0)
                            .template()
                            .path("spec")
                            .path("dnsPolicy")
                            .asText())
                    .isEqualTo("ClusterFirstWithHostNet");
        }

        @Test
        void defaultingIsIdempotent() {
            Job once = JobDefaults.apply(job(ONE_TASK));
            assertThat(JobDefaults.apply(once)).isEqualTo(once);
        }
    }

    @Nested
    class Rejections {

        @Test
        void noTasks() {
            assertRejected(admit(job("queue: default\n")), "spec.tasks: No task specified in job spec");
        }

        static Job withAnnotations(String jobAnnotations, String templateAnnotations) {
            return Manifests.read("""
                    apiVersion: batch.volcano.sh/v1alpha1
                    kind: Job
                    metadata: {name: j, annotations: {%s}}
                    spec:
                      tasks:
                      - name: worker
                        replicas: 1
                        template:
                          metadata: {annotations: {%s}}
                          spec: {containers: [{name: c, image: busybox}]}
                    """.formatted(jobAnnotations, templateAnnotations), Job.class);
        }

        @Test
        void aRevocableZoneOrDisruptionBudgetTheSchedulerCouldNotCarryOut() {
            assertRejected(
                    admit(withAnnotations(
                            "volcano.sh/revocable-zone: rz1, volcano.sh/jdb-min-available: \"0\","
                                    + " volcano.sh/jdb-max-unavailable: \"100%\"",
                            "volcano.sh/jdb-min-available: 5%0")),
                    "metadata.annotations.volcano.sh/revocable-zone: only \"*\" (any revocable zone) is carried out,"
                            + " got \"rz1\"",
                    "metadata.annotations.volcano.sh/jdb-min-available: must be a positive integer, got \"0\"",
                    "metadata.annotations.volcano.sh/jdb-max-unavailable: must be a percentage from 1% to 99%, got"
                            + " \"100%\"",
                    "spec.tasks[0].template.metadata.annotations.volcano.sh/jdb-min-available: expected a positive"
                            + " integer or a percentage from 1% to 99%, got \"5%0\"");
            assertRejected(
                    admit(withAnnotations(
                            "volcano.sh/jdb-min-available: \"2\", volcano.sh/jdb-max-unavailable: \"1\"", "")),
                    "metadata.annotations.volcano.sh/jdb-max-unavailable: only one of volcano.sh/jdb-min-available"
                            + " and volcano.sh/jdb-max-unavailable may be given (the min-available one is the budget)");
            assertAccepted(admit(withAnnotations(
                    "volcano.sh/revocable-zone: \"*\", volcano.sh/jdb-max-unavailable: \"30%\"",
                    "volcano.sh/jdb-min-available: \"+2\"")));
        }

        @Test
        void anSlaWaitingTimeThatIsNoPositiveDuration() {
            Job j = Manifests.read("""
                    apiVersion: batch.volcano.sh/v1alpha1
                    kind: Job
                    metadata: {name: j, annotations: {sla-waiting-time: "-5m"}}
                    spec:
                    """ + ONE_TASK.indent(2), Job.class);
            assertRejected(
                    admit(j), "metadata.annotations.sla-waiting-time: not a positive duration (e.g. 1h2m3s): \"-5m\"");
        }

        @Test
        void duplicateTaskName() {
            assertRejected(
                    admit(job("tasks:\n" + task("worker", 1) + task("worker", 1))),
                    "spec.tasks[1].name: duplicate task name \"worker\"");
        }

        @Test
        void taskNameMustBeADnsLabel() {
            AdmissionResult<Job> r = admit(job("tasks:\n" + task("Worker_1", 1)));
            assertThat(messages(r))
                    .singleElement()
                    .asString()
                    .startsWith("spec.tasks[0].name: invalid task name \"Worker_1\"");
        }

        @Test
        void negativeReplicas() {
            assertRejected(admit(job("tasks:\n" + task("a", -1))), "spec.tasks[0].replicas: must be >= 0");
        }

        @Test
        void taskMinAvailableOutOfRange() {
            assertRejected(
                    admit(job("tasks:\n" + task("a", 2).replace("replicas: 2", "replicas: 2\n  minAvailable: 3"))),
                    "spec.tasks[0].minAvailable: must not be greater than replicas (2)");
            assertRejected(
                    admit(job("tasks:\n" + task("a", 2).replace("replicas: 2", "replicas: 2\n  minAvailable: -1"))),
                    "spec.tasks[0].minAvailable: must be >= 0");
        }

        @Test
        void jobMinAvailableOutOfRange() {
            assertRejected(
                    admit(job("minAvailable: 3\n" + ONE_TASK)),
                    "spec.minAvailable: job 'minAvailable' should not be greater than total replicas in tasks (2)");
            assertRejected(admit(job("minAvailable: -1\n" + ONE_TASK)), "spec.minAvailable: must be >= 0");
        }

        @Test
        void minSuccess() {
            assertRejected(
                    admit(job("minSuccess: 3\n" + ONE_TASK)),
                    "spec.minSuccess: job 'minSuccess' should not be greater than total replicas in tasks (2)");
            assertRejected(admit(job("minSuccess: 0\n" + ONE_TASK)), "spec.minSuccess: must be >= 1");
            assertAccepted(admit(job("minSuccess: 2\n" + ONE_TASK)));
        }

        @Test
        void maxRetryAndTtl() {
            assertRejected(
                    admit(job("maxRetry: -1\nttlSecondsAfterFinished: -5\n" + ONE_TASK)),
                    "spec.maxRetry: must be >= 0",
                    "spec.ttlSecondsAfterFinished: must be >= 0");
        }

        @Test
        void unknownPlugin() {
            AdmissionResult<Job> r = admit(job("plugins:\n  foo: []\n" + ONE_TASK));
            assertThat(messages(r))
                    .singleElement()
                    .asString()
                    .startsWith("spec.plugins.foo: unable to find job plugin: foo");
        }

        @Test
        void theDistributedFrameworkPluginsAreAdmittedWithSvcAndTheirBadArgumentsRejectedAtTheirPath() {
            String tasks = "tasks:\n" + task("master", 1) + task("worker", 2);
            for (String plugin :
                    List.of("pytorch: [--port=5000]", "tensorflow: [--ps=master]", "hcclrank: [-worker, worker]")) {
                Job j = assertAccepted(admit(job("plugins:\n  " + plugin + "\n" + tasks)));
                plugin = plugin.substring(0, plugin.indexOf(':'));
                // Volcano's patchDefaultPlugins: svc for tensorflow, pytorch and ray, not for hcclrank.
                assertThat(j.spec().plugins())
                        .containsOnlyKeys(plugin.equals("hcclrank") ? List.of(plugin) : List.of(plugin, "svc"));
            }
            assertAccepted(admit(job(
                    "plugins:\n  ray: [\"--head=master\", \"--headContainer=c\", \"--workerContainer=c\"]\n" + tasks)));
            assertRejected(
                    admit(job("plugins:\n  pytorch: [\"--port=5000x\"]\n" + tasks)),
                    "spec.plugins.pytorch: invalid value \"5000x\" for flag -port: parse error");
            assertRejected(
                    admit(job("plugins:\n  ray: []\n" + tasks)),
                    "spec.plugins.ray: the head task \"head\" was not found: a Ray cluster needs its head");
            assertRejected(
                    admit(job("plugins:\n  hcclrank: [\"--master=a\", \"--worker=b\"]\n" + tasks)),
                    "spec.plugins.hcclrank: neither the master task \"a\" nor the worker task \"b\" was found:"
                            + " the hcclrank plugin ranks their pods");
        }

        @Test
        void admissionKnowsExactlyThePluginsTheControllerRuns() {
            assertThat(JobSpecValidation.KNOWN_PLUGINS)
                    .containsExactlyElementsOf(JobPluginRegistry.defaults().names());
        }

        @Test
        void mpiMasterTaskMissing() {
            assertRejected(
                    admit(job("plugins:\n  mpi: []\ntasks:\n" + task("worker", 2))),
                    "spec.plugins.mpi: The specified mpi master task was not found: \"master\"");
            assertRejected(
                    admit(job("plugins:\n  mpi: [\"--master=mpimaster\", \"--worker=mpiworker\"]\ntasks:\n"
                            + task("master", 1) + task("mpiworker", 2))),
                    "spec.plugins.mpi: The specified mpi master task was not found: \"mpimaster\"");
            assertAccepted(admit(job("plugins:\n  mpi: [\"--master=mpimaster\", \"--worker=mpiworker\"]\ntasks:\n"
                    + task("mpimaster", 1) + task("mpiworker", 2))));
            // Like Volcano, a missing worker task is accepted.
            assertAccepted(admit(job("plugins:\n  mpi: [\"--master=launcher\"]\ntasks:\n" + task("launcher", 1))));
        }

        @Test
        void podNameTooLong() {
            String name = "a".repeat(55);
            AdmissionResult<Job> r = JobAdmission.create(job(name, "tasks:\n" + task("worker", 12)), FRESH);
            assertThat(messages(r))
                    .singleElement()
                    .asString()
                    .startsWith("spec.tasks[0].name: pod name \"" + name + "-worker-11\"")
                    .contains("must be no more than 63 characters");
            assertAccepted(JobAdmission.create(job("a".repeat(52), "tasks:\n" + task("worker", 10)), FRESH));
        }

        @Test
        void jobNameMustBeValid() {
            AdmissionResult<Job> r = JobAdmission.create(job("Bad_Name", ONE_TASK), FRESH);
            assertThat(messages(r)).anyMatch(m -> m.startsWith("metadata.name: invalid name \"Bad_Name\""));
        }

        @Test
        void cyclicTaskDependencies() {
            String tasks = "tasks:\n"
                    + task("a", 1).replace("replicas: 1", "replicas: 1\n  dependsOn: {name: [c]}")
                    + task("b", 1).replace("replicas: 1", "replicas: 1\n  dependsOn: {name: [a]}")
                    + task("c", 1).replace("replicas: 1", "replicas: 1\n  dependsOn: {name: [b]}");
            assertRejected(
                    admit(job(tasks)),
                    "spec.tasks: job has dependencies between tasks, but doesn't form a"
                            + " directed acyclic graph(DAG): a -> b -> c -> a");
        }

        @Test
        void acyclicTaskDependenciesAreFine() {
            assertAccepted(admit(job("tasks:\n" + task("a", 1)
                    + task("b", 1).replace("replicas: 1", "replicas: 1\n  dependsOn: {name: [a], iteration: any}"))));
        }

        @Test
        void dependencyOnAnUnknownTask() {
            assertRejected(
                    admit(job(
                            "tasks:\n" + task("a", 1).replace("replicas: 1", "replicas: 1\n  dependsOn: {name: [x]}"))),
                    "spec.tasks[0].dependsOn.name[0]: task \"x\" not found in this job, so the dependencies between tasks do not form a directed acyclic graph(DAG)");
        }

        @Test
        void severalViolationsAtOnce() {
            AdmissionResult<Job> r = admit(
                    job("minAvailable: -1\nmaxRetry: -2\nqueue: missing\ntasks:\n" + task("a", 1) + task("a", 1)));
            assertThat(messages(r))
                    .containsExactly(
                            "spec.minAvailable: must be >= 0",
                            "spec.maxRetry: must be >= 0",
                            "spec.tasks[1].name: duplicate task name \"a\"",
                            "spec.queue: queue \"missing\" not found");
        }
    }

    @Nested
    class Policies {

        AdmissionResult<Job> withPolicies(String policies) {
            return admit(job("policies:\n" + policies + ONE_TASK));
        }

        @Test
        void eventAndExitCodeTogether() {
            assertRejected(
                    withPolicies("- {event: PodFailed, exitCode: 3, action: RestartJob}\n"),
                    "spec.policies[0]: must not specify both event and exitCode");
        }

        @Test
        void neitherEventNorExitCode() {
            assertRejected(
                    withPolicies("- {action: RestartJob}\n"),
                    "spec.policies[0]: must specify either event or exitCode");
        }

        @Test
        void exitCodeZero() {
            assertRejected(
                    withPolicies("- {exitCode: 0, action: RestartJob}\n"),
                    "spec.policies[0].exitCode: 0 is not a valid error code");
        }

        @Test
        void duplicateExitCodes() {
            assertRejected(
                    withPolicies("- {exitCode: 3, action: RestartJob}\n- {exitCode: 3, action: AbortJob}\n"),
                    "spec.policies[1].exitCode: duplicate exitCode 3 across different policies");
        }

        @Test
        void duplicateEventsAcrossPolicies() {
            AdmissionResult<Job> r = withPolicies(
                    "- {event: PodFailed, action: RestartJob}\n- {events: [PodEvicted, PodFailed], action: AbortJob}\n");
            assertThat(messages(r))
                    .singleElement()
                    .asString()
                    .startsWith("spec.policies[1].events[1]: duplicate event \"PodFailed\" across different policies");
        }

        @Test
        void unknownAndInternalEvents() {
            AdmissionResult<Job> r = withPolicies(
                    "- {event: PodExploded, action: RestartJob}\n- {event: OutOfSync, action: AbortJob}\n");
            assertThat(messages(r)).hasSize(2);
            assertThat(messages(r).get(0)).startsWith("spec.policies[0].event: invalid policy event \"PodExploded\"");
            assertThat(messages(r).get(1)).startsWith("spec.policies[1].event: invalid policy event \"OutOfSync\"");
        }

        @Test
        void unknownAndInternalActions() {
            AdmissionResult<Job> r =
                    withPolicies("- {event: PodFailed, action: Explode}\n- {event: PodEvicted, action: SyncJob}\n");
            assertThat(messages(r)).hasSize(2).allMatch(m -> m.contains("invalid policy action"));
            assertThat(messages(r).get(0)).startsWith("spec.policies[0].action:");
        }

        @Test
        void starMixedWithOtherEvents() {
            assertRejected(
                    withPolicies("- {event: \"*\", action: RestartJob}\n- {event: PodFailed, action: AbortJob}\n"),
                    "spec.policies: if there's * here, no other policy should be here");
            assertAccepted(withPolicies("- {event: \"*\", action: RestartJob}\n- {exitCode: 3, action: AbortJob}\n"));
        }

        @Test
        void timeoutFormat() {
            assertRejected(
                    withPolicies("- {event: PodFailed, action: RestartJob, timeout: 10}\n"),
                    "spec.policies[0].timeout: invalid duration \"10\" (e.g. \"90s\", \"5m\", \"1h30m\")");
            assertAccepted(withPolicies("- {event: PodPending, action: RestartJob, timeout: 1m30s}\n"));
        }

        @Test
        void taskPoliciesHaveTheirOwnPath() {
            AdmissionResult<Job> r = admit(
                    job(
                            "tasks:\n"
                                    + task("a", 1)
                                            .replace(
                                                    "replicas: 1",
                                                    "replicas: 1\n  policies:\n  - {event: TaskCompleted, action: CompleteJob}\n  - {event: PodFailed, exitCode: 1, action: RestartJob}")));
            assertThat(messages(r))
                    .containsExactly("spec.tasks[0].policies[1]: must not specify both event and exitCode");
        }
    }

    @Nested
    class PodTemplates {

        AdmissionResult<Job> withContainers(String containers) {
            return admit(job("""
                    tasks:
                    - name: a
                      replicas: 1
                      template:
                        spec:
                          containers:
                    """
                    + containers.lines().map(l -> "    " + l + "\n").collect(java.util.stream.Collectors.joining())));
        }

        @Test
        void noContainers() {
            assertRejected(
                    admit(job("tasks:\n- name: a\n  replicas: 1\n  template:\n    spec:\n      containers: []\n")),
                    "spec.tasks[0].template.spec.containers: required: must have at least one container");
        }

        @Test
        void duplicateContainerNamesAndMissingImage() {
            AdmissionResult<Job> r = withContainers("    - {name: c, image: x}\n    - {name: c}\n");
            assertThat(messages(r))
                    .containsExactly(
                            "spec.tasks[0].template.spec.containers[1].name: duplicate container name \"c\"",
                            "spec.tasks[0].template.spec.containers[1].image: required");
        }

        @Test
        void badQuantitiesAndRequestsAboveLimits() {
            AdmissionResult<Job> r = withContainers("""
                        - name: c
                          image: x
                          resources:
                            requests: {cpu: "2", memory: lots}
                            limits: {cpu: 1500m}
                    """);
            assertThat(messages(r)).hasSize(2);
            assertThat(messages(r).get(0))
                    .startsWith(
                            "spec.tasks[0].template.spec.containers[0].resources.requests.memory: invalid quantity \"lots\"");
            assertThat(messages(r).get(1))
                    .isEqualTo(
                            "spec.tasks[0].template.spec.containers[0].resources.requests.cpu: must be less than or equal to cpu limit of 1500m");
        }

        @Test
        void restartPolicy() {
            assertRejected(
                    admit(job(
                            "tasks:\n- name: a\n  replicas: 1\n  template:\n    spec:\n      restartPolicy: Sometimes\n"
                                    + "      containers: [{name: c, image: x}]\n")),
                    "spec.tasks[0].template.spec.restartPolicy: unsupported value \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"");
        }

        @Test
        void preemptionPolicy() {
            assertRejected(
                    admit(job(
                            "tasks:\n- name: a\n  replicas: 1\n  template:\n    spec:\n      preemptionPolicy: Sometimes\n"
                                    + "      containers: [{name: c, image: x}]\n")),
                    "spec.tasks[0].template.spec.preemptionPolicy: unsupported value \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"");
            assertThat(admit(job(
                                    "tasks:\n- name: a\n  replicas: 1\n  template:\n    spec:\n      preemptionPolicy: Never\n"
                                            + "      containers: [{name: c, image: x}]\n"))
                            .violations())
                    .isEmpty();
        }

        @Test
        void portsAndMounts() {
            AdmissionResult<Job> r = withContainers("""
                        - name: c
                          image: x
                          ports: [{containerPort: 70000}]
                          volumeMounts: [{name: data, mountPath: /d}]
                    """);
            assertThat(messages(r))
                    .containsExactly(
                            "spec.tasks[0].template.spec.containers[0].ports[0].containerPort: must be between 1 and 65535, inclusive",
                            "spec.tasks[0].template.spec.containers[0].volumeMounts[0].name: volume \"data\" not found in the pod's volumes");
        }

        @Test
        void affinityAndSpreadAreCheckedAsTheSchedulerReadsThem() {
            AdmissionResult<Job> r = admit(job("""
                    tasks:
                    - name: a
                      replicas: 1
                      template:
                        spec:
                          containers: [{name: c, image: x}]
                          affinity:
                            podAntiAffinity:
                              requiredDuringSchedulingIgnoredDuringExecution:
                              - labelSelector: {matchExpressions: [{key: app, operator: In}]}
                          topologySpreadConstraints:
                          - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, minDomains: 2}
                          - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Later}
                    """));
            String p = "spec.tasks[0].template.spec.";
            assertThat(messages(r))
                    .containsExactly(
                            p
                                    + "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty",
                            p
                                    + "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values:"
                                    + " Required value: must be specified when `operator` is 'In' or 'NotIn'",
                            p + "topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
                            p
                                    + "topologySpreadConstraints[1].whenUnsatisfiable: Unsupported value: \"Later\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
        }

        @Test
        void resourceNamesAndExtendedResources() {
            AdmissionResult<Job> r = withContainers("""
                        - name: c
                          image: x
                          resources:
                            requests: {cpus: 1, nvidia.com/gpu: 1, example.com/fpga: 1}
                            limits: {nvidia.com/gpu: 2}
                    """);
            assertThat(messages(r))
                    .containsExactly(
                            "spec.tasks[0].template.spec.containers[0].resources.requests.nvidia.com/gpu: must be equal to nvidia.com/gpu limit of 2",
                            "spec.tasks[0].template.spec.containers[0].resources.limits: Limit must be set for non overcommitable resources (example.com/fpga)",
                            "spec.tasks[0].template.spec.containers[0].resources.requests.cpus: invalid resource name \"cpus\": must be a"
                                    + " standard resource (cpu, memory, ephemeral-storage, hugepages-<size>) or fully qualified (e.g. nvidia.com/gpu)");
        }

        @Test
        void volumesNeedASourceAndCommandsAreLists() {
            AdmissionResult<Job> r = admit(job("""
                    tasks:
                    - name: a
                      replicas: 1
                      template:
                        metadata:
                          labels: {app: "-bad-"}
                        spec:
                          volumes: [{name: data}]
                          containers: [{name: c, image: x, command: "sleep 10", volumeMounts: [{name: data, mountPath: /d}]}]
                    """));
            assertThat(messages(r))
                    .containsExactly(
                            "spec.tasks[0].template.metadata.labels.app: invalid label value \"-bad-\": a valid label must be an empty"
                                    + " string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
                            "spec.tasks[0].template.spec.volumes[0]: must specify a volume type (emptyDir, configMap, persistentVolumeClaim...)",
                            "spec.tasks[0].template.spec.containers[0].command: must be a list of strings");
        }

        @Test
        void topologyPolicyNeedsGuaranteedWholeCpus() {
            String burstable =
                    "tasks:\n- name: a\n  replicas: 1\n  topologyPolicy: single-numa-node\n  template:\n    spec:\n"
                            + "      containers: [{name: c, image: x, resources: {requests: {cpu: 1}}}]\n";
            assertThat(messages(admit(job(burstable))))
                    .singleElement()
                    .asString()
                    .startsWith("spec.tasks[0].topologyPolicy:");
            String guaranteed =
                    "tasks:\n- name: a\n  replicas: 1\n  topologyPolicy: single-numa-node\n  template:\n    spec:\n"
                            + "      containers: [{name: c, image: x, resources: {limits: {cpu: 2, memory: 1Gi}}}]\n";
            assertAccepted(admit(job(guaranteed)));
        }
    }

    @Nested
    class PartitionsAndTopology {

        String partitioned(String policy, String extra) {
            return "tasks:\n- name: a\n  replicas: 8\n" + extra + "  partitionPolicy: " + policy
                    + "\n  template:\n    spec:\n" + "      containers: [{name: c, image: x}]\n";
        }

        @Test
        void sizesMustBePositiveAndMultiplyToTheReplicas() {
            assertThat(messages(admit(job(partitioned("{totalPartitions: 0, partitionSize: -1}", "")))))
                    .containsExactly(
                            "spec.tasks[0].partitionPolicy.totalPartitions: 'TotalPartitions' must be greater than 0",
                            "spec.tasks[0].partitionPolicy.partitionSize: 'PartitionSize' must be greater than 0");
            assertRejected(
                    admit(job(partitioned("{totalPartitions: 2, partitionSize: 3}", ""))),
                    "spec.tasks[0].partitionPolicy: 'Replicas' are not equal to TotalPartitions*PartitionSize (8 != 2*3)");
            assertAccepted(admit(job(partitioned("{totalPartitions: 2, partitionSize: 4}", ""))));
        }

        @Test
        void minPartitionsSetTheTaskGang() {
            Job j = assertAccepted(
                    admit(job(partitioned("{totalPartitions: 4, partitionSize: 2, minPartitions: 1}", ""))));
            assertThat(j.spec().tasks().get(0).minAvailable()).isEqualTo(2);
            assertThat(j.spec().minAvailable()).isEqualTo(2);
            assertRejected(
                    admit(job(partitioned(
                            "{totalPartitions: 4, partitionSize: 2, minPartitions: 1}", "  minAvailable: 4\n"))),
                    "spec.tasks[0].minAvailable: 'MinAvailable' is not equal to MinPartitions*PartitionSize (4 != 1*2)");
        }

        @Test
        void networkTopologyTierIsOneOrTheOther() {
            assertRejected(
                    admit(job(
                            "networkTopology: {mode: hard, highestTierAllowed: 1, highestTierName: volcano.sh/hypernode}\n"
                                    + ONE_TASK)),
                    "spec.networkTopology: must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously");
            assertRejected(
                    admit(job("networkTopology: {mode: strict}\n" + ONE_TASK)),
                    "spec.networkTopology.mode: unsupported value \"strict\": supported values: \"hard\", \"soft\"");
        }

        @Test
        void networkTopologyIsRefusedForLackOfHyperNodes() {
            String refused = "spec.networkTopology: " + JobSpecValidation.NO_HYPERNODES;
            assertRejected(admit(job("networkTopology: {mode: soft, highestTierAllowed: 2}\n" + ONE_TASK)), refused);
            assertRejected(admit(job("networkTopology: {mode: hard, highestTierAllowed: 1}\n" + ONE_TASK)), refused);
            assertRejected(
                    admit(job(partitioned(
                            "{totalPartitions: 8, partitionSize: 1, networkTopology: {mode: hard, highestTierAllowed: 1}}",
                            ""))),
                    "spec.tasks[0].partitionPolicy.networkTopology: " + JobSpecValidation.NO_HYPERNODES);
        }

        @Test
        void podLevelResourcesCoverTheContainers() {
            String tasks = """
                    tasks:
                    - name: a
                      replicas: 1
                      template:
                        spec:
                          resources: {requests: {cpu: 2}, limits: {cpu: 1}}
                          initContainers: [{name: i, image: x, resources: {requests: {cpu: 2}}}]
                          containers:
                          - {name: c, image: x, resources: {requests: {cpu: 2}}}
                          - {name: d, image: x, resources: {requests: {cpu: 2}}}
                    """;
            assertThat(messages(admit(job(tasks))))
                    .containsExactly(
                            "spec.tasks[0].template.spec.resources.requests.cpu: must be less than or equal to cpu limit of 1",
                            "spec.tasks[0].template.spec.resources.requests.cpu: must be greater than or equal to aggregate container requests of 4");
        }
    }

    @Nested
    class Volumes {

        @Test
        void mountPathsAndClaims() {
            AdmissionResult<Job> r = admit(job("""
                    volumes:
                    - mountPath: ""
                      volumeClaimName: a
                    - mountPath: /data
                      volumeClaimName: b
                    - mountPath: /data
                      volumeClaimName: c
                    - mountPath: /x
                    """ + ONE_TASK));
            assertThat(messages(r))
                    .containsExactly(
                            "spec.volumes[0].mountPath: mountPath is required",
                            "spec.volumes[2].mountPath: duplicated mountPath: /data",
                            "spec.volumes[3]: either VolumeClaim or VolumeClaimName must be specified");
        }
    }

    @Nested
    class Queues {

        AdmissionContext ctx = AdmissionContext.freshInstall()
                .with(AdmissionContext.openQueue("team", "root"))
                .with(AdmissionContext.openQueue("dev", "team"))
                .with(AdmissionContext.openQueue("closed", "root")
                        .withStatus(io.lahar.core.api.Queue.QueueStatus.of(QueueState.Closed)));

        @Test
        void missingQueue() {
            assertRejected(JobAdmission.create(job("queue: x\n" + ONE_TASK), ctx), "spec.queue: queue \"x\" not found");
        }

        @Test
        void closedQueue() {
            assertRejected(
                    JobAdmission.create(job("queue: closed\n" + ONE_TASK), ctx),
                    "spec.queue: can only submit job to queue with state Open, queue \"closed\" status is Closed");
        }

        @Test
        void rootQueue() {
            assertRejected(
                    JobAdmission.create(job("queue: root\n" + ONE_TASK), ctx),
                    "spec.queue: can not submit job to root queue");
        }

        @Test
        void nonLeafQueue() {
            assertRejected(
                    JobAdmission.create(job("queue: team\n" + ONE_TASK), ctx),
                    "spec.queue: can only submit job to leaf queue: queue \"team\" has child queues (dev)");
            assertAccepted(JobAdmission.create(job("queue: dev\n" + ONE_TASK), ctx));
        }
    }

    @Nested
    class Updates {

        Job old = job(ONE_TASK.replace("replicas: 2", "replicas: 2\n  minAvailable: 2") + "priorityClassName: low\n");

        @Test
        void scalingAndPriorityMayChange() {
            Job scaled = job(ONE_TASK.replace("replicas: 2", "replicas: 4\n  minAvailable: 3")
                    + "minAvailable: 3\npriorityClassName: high\n");
            Job j = assertAccepted(JobAdmission.update(old, scaled, FRESH));
            assertThat(j.spec().tasks().get(0).replicas()).isEqualTo(4);
        }

        @Test
        void anythingElseMayNot() {
            Job changed = job(ONE_TASK.replace("image: busybox", "image: nginx") + "maxRetry: 5\nqueue: other\n");
            AdmissionResult<Job> r = JobAdmission.update(old, changed, FRESH);
            assertThat(r.violations())
                    .extracting(Violation::path)
                    .containsExactly("spec.tasks[0].template.spec.containers[0].image", "spec.queue", "spec.maxRetry");
            assertThat(messages(r).get(0))
                    .endsWith("may not be changed on update: only minAvailable, tasks[*].replicas,"
                            + " tasks[*].minAvailable and priorityClassName may change");
        }

        @Test
        void tasksMayNotBeAddedOrRemoved() {
            Job more = job("tasks:\n" + task("worker", 2) + task("ps", 1));
            assertRejected(
                    JobAdmission.update(old, more, FRESH),
                    "spec.tasks: job updates may not add or remove tasks (1 before, 2 now)");
        }

        @Test
        void scalingIsStillValidated() {
            Job bad = job(ONE_TASK.replace("replicas: 2", "replicas: -1") + "minAvailable: 5\n");
            assertRejected(
                    JobAdmission.update(old, bad, FRESH),
                    "spec.tasks[0].replicas: must be >= 0",
                    "spec.minAvailable: job 'minAvailable' should not be greater than total replicas in tasks (-1)");
        }

        @Test
        void storedDefaultsAreNotAChange() {
            Job stored = assertAccepted(JobAdmission.create(old, FRESH));
            assertAccepted(JobAdmission.update(stored, old, FRESH));
        }
    }

    @Test
    void policiesOfAnAdmittedJobAreTyped() {
        Job j = assertAccepted(admit(
                job("policies:\n- {events: [PodFailed, PodEvicted], action: RestartJob, timeout: 30s}\n" + ONE_TASK)));
        assertThat(j.spec().policies().get(0).eventValues())
                .extracting(io.lahar.core.api.Event::value)
                .containsExactly("PodFailed", "PodEvicted");
        assertThat(j.spec().policies().get(0).timeoutDuration()).contains(java.time.Duration.ofSeconds(30));
        assertThat(List.of(j.spec().policies().get(0).actionValue().orElseThrow()))
                .containsExactly(io.lahar.core.api.Action.RESTART_JOB);
    }
}
