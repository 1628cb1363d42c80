package io.lahar.core.admission;

import io.lahar.core.api.JobSpec;
import io.lahar.core.api.PartitionPolicy;
import io.lahar.core.api.PodTemplate;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.api.VolumeSpec;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.resource.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of Volcano's validateJobCreate (jobs/validate/admit_job.go) that depend only on the
 * spec, shared by Job and JobTemplate. It runs on the defaulted spec, as Volcano's validating
 * webhook sees the object after the mutating one.
 */
final class JobSpecValidation {

    /** The job plugins the controller runs: admission accepts those and no other. */
    static final JobPluginRegistry PLUGINS = JobPluginRegistry.defaults();

    static final List<String> KNOWN_PLUGINS = List.copyOf(PLUGINS.names());
    static final List<String> TOPOLOGY_POLICIES = List.of("none", "best-effort", "restricted", "single-numa-node");

    private JobSpecValidation() {}

    /** Validates {@code spec} of the object named {@code name} (empty when unnamed). */
    static void validate(String name, JobSpec spec, AdmissionLimits limits, Violations v) {
        if (spec == null) {
            v.add("spec", "required");
            return;
        }
        if (spec.minAvailable() != null && spec.minAvailable() < 0) {
            v.add("spec.minAvailable", "must be >= 0");
        }
        if (spec.maxRetry() != null && spec.maxRetry() < 0) {
            v.add("spec.maxRetry", "must be >= 0");
        }
        if (spec.ttlSecondsAfterFinished() != null && spec.ttlSecondsAfterFinished() < 0) {
            v.add("spec.ttlSecondsAfterFinished", "must be >= 0");
        }
        if (spec.tasksOrEmpty().isEmpty()) {
            v.add("spec.tasks", "No task specified in job spec");
        }
        validatePluginArguments(spec, v);
        validateTasks(name, spec, v);
        validateScale(spec, limits, v);
        PolicyValidation.validate(
                spec.policies(),
                "spec.policies",
                spec.tasksOrEmpty().stream().anyMatch(t -> t != null && t.partitionPolicy() != null)
                        ? null
                        : "no task has a partitionPolicy",
                v);
        for (String plugin : spec.pluginsOrEmpty().keySet()) {
            if (!KNOWN_PLUGINS.contains(plugin)) {
                v.add(
                        "spec.plugins." + plugin,
                        "unable to find job plugin: " + plugin + " (known: " + String.join(", ", KNOWN_PLUGINS) + ")");
            }
        }
        validateVolumes(spec.volumes(), v);
        if (spec.runningEstimate() != null) {
            // Volcano's API has the field and nothing in Volcano reads it: accepting it would promise
            // what no scheduler here (or there) does.
            v.add(
                    "spec.runningEstimate",
                    "runningEstimate is not carried out: neither Volcano's controllers nor its scheduler read it;"
                            + " leave it out");
        }
        if (spec.schedulerName() != null && spec.schedulerName().length() > 63) {
            v.add("spec.schedulerName", "must be no more than 63 characters");
        }
        if (spec.networkTopology() != null) {
            validateNetworkTopology(spec.networkTopology(), "spec.networkTopology", v);
        }
        validateDependencies(spec, v);
    }

    private static void validateTasks(String jobName, JobSpec spec, Violations v) {
        List<TaskSpec> tasks = spec.tasksOrEmpty();
        Map<String, Integer> firstIndex = new HashMap<>();
        boolean jobNameOk =
                !jobName.isEmpty() && Names.dns1123Subdomain(jobName).isEmpty();
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            String at = "spec.tasks[" + i + "]";
            if (task == null) {
                v.add(at, "required");
                continue;
            }
            if (task.maxRetry() != null && task.maxRetry() < 0) {
                v.add(at + ".maxRetry", "must be >= 0");
            }
            String name = task.name() == null ? "" : task.name();
            List<String> nameErrs = Names.dns1123Label(name);
            if (!nameErrs.isEmpty()) {
                v.add(at + ".name", "invalid task name \"" + name + "\": " + Names.join(nameErrs));
            } else if (firstIndex.containsKey(name)) {
                v.add(at + ".name", "duplicate task name \"" + name + "\"");
            } else {
                firstIndex.put(name, i);
                if (jobNameOk) {
                    // The longest pod name of the task is the one with the highest replica index.
                    String podName = jobName + "-" + name + "-" + Math.max(0, task.replicasOrZero() - 1);
                    List<String> podErrs = Names.dns1123Label(podName);
                    if (!podErrs.isEmpty()) {
                        v.add(
                                at + ".name",
                                "pod name \"" + podName + "\" (<job>-<task>-<index>) is invalid: "
                                        + Names.join(podErrs));
                    }
                }
            }
            PolicyValidation.validate(
                    task.policies(),
                    at + ".policies",
                    task.partitionPolicy() != null ? null : "the task has no partitionPolicy",
                    v);
            PodTemplateValidation.validate(task.template(), at + ".template", v);
            if (task.template() != null) {
                JobAdmission.validateCooldownTime(task.template().path("metadata"), at + ".template.metadata.", v);
                JobAdmission.validateRevocable(task.template().path("metadata"), at + ".template.metadata.", v);
            }
            validateTopologyPolicy(task, at, v);
            validatePartition(task, at, v);
            if (task.dependsOn() != null
                    && task.dependsOn().iteration() != null
                    && !List.of("any", "all").contains(task.dependsOn().iteration())) {
                v.add(
                        at + ".dependsOn.iteration",
                        PodTemplateValidation.unsupported(task.dependsOn().iteration(), List.of("any", "all")));
            }
        }
    }

    /**
     * The numbers a job's pods are made from, checked alike on create and on update (where they
     * may change): each replicas and minAvailable in range, and the replicas' sum, computed in a
     * long so that no int overflow hides it, within the per-job pod limit; the job's minAvailable
     * and minSuccess within that sum (its sign is the caller's to check).
     */
    static void validateScale(JobSpec spec, AdmissionLimits limits, Violations v) {
        List<TaskSpec> tasks = spec.tasksOrEmpty();
        long total = 0;
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            if (task == null) {
                continue;
            }
            String at = "spec.tasks[" + i + "]";
            if (task.replicas() != null && task.replicas() < 0) {
                v.add(at + ".replicas", "must be >= 0");
            } else if (task.replicasOrZero() > limits.maxPodsPerJob()) {
                v.add(at + ".replicas", limits.overPodLimit(task.replicasOrZero()));
            }
            total += task.replicasOrZero();
            if (task.minAvailable() != null) {
                if (task.minAvailable() < 0) {
                    v.add(at + ".minAvailable", "must be >= 0");
                } else if (task.minAvailable() > task.replicasOrZero()) {
                    v.add(at + ".minAvailable", "must not be greater than replicas (" + task.replicasOrZero() + ")");
                }
            }
        }
        if (total > limits.maxPodsPerJob()) {
            v.add("spec.tasks", limits.sumOverPodLimit("the tasks' replicas", total));
        }
        if (spec.minAvailable() != null && spec.minAvailable() > total) {
            v.add(
                    "spec.minAvailable",
                    "job 'minAvailable' should not be greater than total replicas in tasks (" + total + ")");
        }
        if (spec.minSuccess() != null) {
            if (spec.minSuccess() < 1) {
                v.add("spec.minSuccess", "must be >= 1");
            } else if (spec.minSuccess() > total) {
                v.add(
                        "spec.minSuccess",
                        "job 'minSuccess' should not be greater than total replicas in tasks (" + total + ")");
            }
        }
    }

    /** NUMA-aware tasks must be Guaranteed pods with whole CPUs (Volcano's validateTaskTopoPolicy). */
    private static void validateTopologyPolicy(TaskSpec task, String at, Violations v) {
        String policy = task.topologyPolicy();
        if (policy == null || policy.isEmpty()) {
            return;
        }
        if (!TOPOLOGY_POLICIES.contains(policy)) {
            v.add(at + ".topologyPolicy", PodTemplateValidation.unsupported(policy, TOPOLOGY_POLICIES));
            return;
        }
        if (policy.equals("none")) {
            return;
        }
        PodTemplate pod = task.pod();
        List<PodTemplate.Container> all = new ArrayList<>(pod.containers());
        all.addAll(pod.initContainers());
        for (PodTemplate.Container c : all) {
            Map<String, String> limits = c.limits();
            Map<String, String> requests = c.requests().isEmpty() ? limits : c.requests();
            boolean guaranteed = limits.containsKey("cpu")
                    && limits.containsKey("memory")
                    && requests.keySet().stream()
                            .allMatch(k -> !limits.containsKey(k) || sameQuantity(requests.get(k), limits.get(k)))
                    && sameQuantity(requests.get("cpu"), limits.get("cpu"))
                    && sameQuantity(requests.get("memory"), limits.get("memory"));
            if (!guaranteed) {
                v.add(
                        at + ".topologyPolicy",
                        "topologyPolicy \"" + policy + "\" needs a Guaranteed pod: every container"
                                + " must have cpu and memory limits equal to its requests");
                return;
            }
        }
        for (PodTemplate.Container c : all) {
            String cpu = c.requests().isEmpty()
                    ? c.limits().get("cpu")
                    : c.requests().get("cpu");
            BigDecimal q = Quantity.amountOf(cpu).orElse(BigDecimal.ZERO);
            if (q.signum() == 0 || q.stripTrailingZeros().scale() > 0) {
                v.add(
                        at + ".topologyPolicy",
                        "topologyPolicy \"" + policy + "\" needs a whole number of cpus in" + " container \""
                                + c.name().orElse("") + "\", found " + cpu);
                return;
            }
        }
    }

    private static boolean sameQuantity(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        var qa = Quantity.amountOf(a);
        var qb = Quantity.amountOf(b);
        return qa.isPresent() && qb.isPresent() && qa.get().compareTo(qb.get()) == 0;
    }

    /** Volcano's partition checks: positive sizes, replicas = total * size, minAvailable = minPartitions * size. */
    private static void validatePartition(TaskSpec task, String at, Violations v) {
        PartitionPolicy p = task.partitionPolicy();
        if (p == null) {
            return;
        }
        String pp = at + ".partitionPolicy";
        boolean ok = true;
        if (p.totalPartitions() == null || p.totalPartitions() < 1) {
            v.add(pp + ".totalPartitions", "'TotalPartitions' must be greater than 0");
            ok = false;
        }
        if (p.partitionSize() == null || p.partitionSize() < 1) {
            v.add(pp + ".partitionSize", "'PartitionSize' must be greater than 0");
            ok = false;
        }
        if (ok && (long) p.totalPartitions() * p.partitionSize() != task.replicasOrZero()) {
            v.add(
                    pp,
                    "'Replicas' are not equal to TotalPartitions*PartitionSize (" + task.replicasOrZero() + " != "
                            + p.totalPartitions() + "*" + p.partitionSize() + ")");
        }
        if (p.minPartitions() != null) {
            if (p.minPartitions() < 0 || (p.totalPartitions() != null && p.minPartitions() > p.totalPartitions())) {
                v.add(pp + ".minPartitions", "must be between 0 and totalPartitions");
            } else if (ok
                    && task.minAvailable() != null
                    && (long) p.minPartitions() * p.partitionSize() != task.minAvailable()) {
                v.add(
                        at + ".minAvailable",
                        "'MinAvailable' is not equal to MinPartitions*PartitionSize (" + task.minAvailable() + " != "
                                + p.minPartitions() + "*" + p.partitionSize() + ")");
            }
        }
        if (p.networkTopology() != null) {
            validateNetworkTopology(p.networkTopology(), pp + ".networkTopology", v);
        }
    }

    /**
     * Why a networkTopology is refused: Volcano places such a job within a HyperNode of the tier it
     * allows, and Lahar's scheduler knows no HyperNodes, so the constraint would be dropped.
     */
    static final String NO_HYPERNODES =
            "not supported: Lahar's scheduler has no HyperNodes (network tiers) to keep the pods within, so the job would run as if it were not set; remove it";

    private static void validateNetworkTopology(io.lahar.core.api.NetworkTopologySpec nt, String at, Violations v) {
        v.add(at, NO_HYPERNODES);
        if (nt.mode() != null && !List.of("hard", "soft").contains(nt.mode())) {
            v.add(at + ".mode", PodTemplateValidation.unsupported(nt.mode(), List.of("hard", "soft")));
        }
        if (nt.highestTierAllowed() != null && nt.highestTierAllowed() < 0) {
            v.add(at + ".highestTierAllowed", "must be >= 0");
        }
        if (nt.highestTierAllowed() != null
                && nt.highestTierName() != null
                && !nt.highestTierName().isEmpty()) {
            v.add(at, "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously");
        }
    }

    /** Each known plugin checks its arguments against the job (the mpi plugin: its master task exists), as the runtime reads them. */
    private static void validatePluginArguments(JobSpec spec, Violations v) {
        spec.pluginsOrEmpty().forEach((plugin, args) -> {
            for (String problem : PLUGINS.validate(plugin, args, spec)) {
                v.add("spec.plugins." + plugin, problem);
            }
        });
    }

    private static void validateVolumes(List<VolumeSpec> volumes, Violations v) {
        if (volumes == null) {
            return;
        }
        Set<String> paths = new HashSet<>();
        for (int k = 0; k < volumes.size(); k++) {
            VolumeSpec vol = volumes.get(k);
            String at = "spec.volumes[" + k + "]";
            if (vol == null) {
                v.add(at, "required");
                continue;
            }
            if (vol.mountPath() == null || vol.mountPath().isEmpty()) {
                v.add(at + ".mountPath", "mountPath is required");
            } else if (vol.mountPath().contains(":")) {
                v.add(at + ".mountPath", "must not contain ':'");
            } else if (!paths.add(vol.mountPath())) {
                v.add(at + ".mountPath", "duplicated mountPath: " + vol.mountPath());
            }
            boolean hasName =
                    vol.volumeClaimName() != null && !vol.volumeClaimName().isEmpty();
            if (vol.volumeClaim() == null && !hasName) {
                v.add(at, "either VolumeClaim or VolumeClaimName must be specified");
            } else if (vol.volumeClaim() != null && hasName) {
                v.add(
                        at + ".volumeClaimName",
                        "conflict: to use an existing PVC specify only volumeClaimName;"
                                + " to create a new PVC specify only volumeClaim");
            } else if (hasName && !Names.dns1123Subdomain(vol.volumeClaimName()).isEmpty()) {
                v.add(
                        at + ".volumeClaimName",
                        "invalid volumeClaimName \"" + vol.volumeClaimName() + "\": "
                                + Names.join(Names.dns1123Subdomain(vol.volumeClaimName())));
            }
        }
    }

    /** dependsOn must name tasks of this job and form a DAG; a cycle is reported once, spelled out. */
    private static void validateDependencies(JobSpec spec, Violations v) {
        List<TaskSpec> tasks = spec.tasksOrEmpty();
        Map<String, List<String>> deps = new LinkedHashMap<>();
        for (TaskSpec t : tasks) {
            if (t != null && t.name() != null) {
                deps.putIfAbsent(t.name(), new ArrayList<>());
            }
        }
        boolean any = false;
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec t = tasks.get(i);
            if (t == null || t.dependsOn() == null) {
                continue;
            }
            any = true;
            List<String> names = t.dependsOn().namesOrEmpty();
            for (int k = 0; k < names.size(); k++) {
                String d = names.get(k);
                if (!deps.containsKey(d)) {
                    v.add(
                            "spec.tasks[" + i + "].dependsOn.name[" + k + "]",
                            "task \"" + d + "\" not found in this job,"
                                    + " so the dependencies between tasks do not form a directed acyclic graph(DAG)");
                } else if (t.name() != null) {
                    deps.get(t.name()).add(d);
                }
            }
        }
        if (any) {
            Graphs.findCycle(deps)
                    .ifPresent(cycle -> v.add(
                            "spec.tasks",
                            "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG): "
                                    + String.join(" -> ", cycle)));
        }
    }
}
