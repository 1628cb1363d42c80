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
        Draft d = new Draft(this);
        d.schedulerName = v;
        return d.done();
    }

    public JobSpec withMinAvailable(Integer v) {
        Draft d = new Draft(this);
        d.minAvailable = v;
        return d.done();
    }

    public JobSpec withVolumes(List<VolumeSpec> v) {
        Draft d = new Draft(this);
        d.volumes = v;
        return d.done();
    }

    public JobSpec withTasks(List<TaskSpec> v) {
        Draft d = new Draft(this);
        d.tasks = v;
        return d.done();
    }

    public JobSpec withPolicies(List<LifecyclePolicy> v) {
        Draft d = new Draft(this);
        d.policies = v;
        return d.done();
    }

    public JobSpec withPlugins(Map<String, List<String>> v) {
        Draft d = new Draft(this);
        d.plugins = v;
        return d.done();
    }

    public JobSpec withQueue(String v) {
        Draft d = new Draft(this);
        d.queue = v;
        return d.done();
    }

    public JobSpec withMaxRetry(Integer v) {
        Draft d = new Draft(this);
        d.maxRetry = v;
        return d.done();
    }

    public JobSpec withPriorityClassName(String v) {
        Draft d = new Draft(this);
        d.priorityClassName = v;
        return d.done();
    }

    /**
     * A changing copy of a spec: each wither above changes one of the thirteen components, so each
     * names only that one and this class copies the rest.
     */
    private static final class Draft {
        private String schedulerName;
        private Integer minAvailable;
        private List<VolumeSpec> volumes;
        private List<TaskSpec> tasks;
        private List<LifecyclePolicy> policies;
        private Map<String, List<String>> plugins;
        private final String runningEstimate;
        private String queue;
        private Integer maxRetry;
        private final Integer ttlSecondsAfterFinished;
        private String priorityClassName;
        private final Integer minSuccess;
        private final NetworkTopologySpec networkTopology;

        Draft(JobSpec s) {
            schedulerName = s.schedulerName;
            minAvailable = s.minAvailable;
            volumes = s.volumes;
            tasks = s.tasks;
            policies = s.policies;
            plugins = s.plugins;
            runningEstimate = s.runningEstimate;
            queue = s.queue;
            maxRetry = s.maxRetry;
            ttlSecondsAfterFinished = s.ttlSecondsAfterFinished;
            priorityClassName = s.priorityClassName;
            minSuccess = s.minSuccess;
            networkTopology = s.networkTopology;
        }

        JobSpec done() {
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
                    priorityClassName,
                    minSuccess,
                    networkTopology);
        }
    }
}
