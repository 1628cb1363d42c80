package io.lahar.core.api;

import java.util.List;
import java.util.Map;

/**
 * Volcano's JobSpec. Optional numbers are boxed: null means "not given", which is what the
 * defaulting (queue, maxRetry, minAvailable...) keys on.
 */
public record JobSpec(
        String schedulerName,
        Integer minAvailable,
        List<VolumeSpec> volumes,
        List<TaskSpec> tasks,
        List<LifecyclePolicy> policies,
        Map<String, List<String>> plugins,
        String runningEstimate,
        String queue,
        Integer maxRetry,
        Integer ttlSecondsAfterFinished,
        String priorityClassName,
        Integer minSuccess,
        NetworkTopologySpec networkTopology) {

    public List<TaskSpec> tasksOrEmpty() {
        return tasks == null ? List.of() : tasks;
    }

    public List<LifecyclePolicy> policiesOrEmpty() {
        return policies == null ? List.of() : policies;
    }

    public List<VolumeSpec> volumesOrEmpty() {
        return volumes == null ? List.of() : volumes;
    }

    public Map<String, List<String>> pluginsOrEmpty() {
        return plugins == null ? Map.of() : plugins;
    }

    /** Sum of the tasks' replicas (a missing replicas counts 0, as in Volcano). */
    public int totalReplicas() {
        // A loop, not a stream: the job controller asks on every pod event.
        int total = 0;
        for (TaskSpec t : tasksOrEmpty()) {
            if (t != null) {
                total += t.replicasOrZero();
            }
        }
        return total;
    }

    public JobSpec withSchedulerName(String v) {
        return new JobSpec(
                v,
                minAvailable,
                volumes,
                tasks,
                policies,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withMinAvailable(Integer v) {
        return new JobSpec(
                schedulerName,
                v,
                volumes,
                tasks,
                policies,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withVolumes(List<VolumeSpec> v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                v,
                tasks,
                policies,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withTasks(List<TaskSpec> v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                v,
                policies,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withPolicies(List<LifecyclePolicy> v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                tasks,
                v,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withPlugins(Map<String, List<String>> v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                tasks,
                policies,
                v,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withQueue(String v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                tasks,
                policies,
                plugins,
                runningEstimate,
                v,
                maxRetry,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withMaxRetry(Integer v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                tasks,
                policies,
                plugins,
                runningEstimate,
                queue,
                v,
                ttlSecondsAfterFinished,
                priorityClassName,
                minSuccess,
                networkTopology);
    }

    public JobSpec withPriorityClassName(String v) {
        return new JobSpec(
                schedulerName,
                minAvailable,
                volumes,
                tasks,
                policies,
                plugins,
                runningEstimate,
                queue,
                maxRetry,
                ttlSecondsAfterFinished,
                v,
                minSuccess,
                networkTopology);
    }
}
