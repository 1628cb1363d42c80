package io.lahar.core.job;

import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskDependsOn;
import io.lahar.core.api.TaskSpec;

/**
 * What the controller asks about a job's tasks (Volcano's job_controller_util): whether a task
 * completed or failed, whether the tasks another depends on are ready, and the retry limits. Read
 * from the spec and the pod tally, never from a scan of the pods.
 */
final class TaskChecks {

    /** Volcano's default maxRetry, for the job and for a task, when not given or 0. */
    static final int DEFAULT_MAX_RETRY = 3;

    private TaskChecks() {}

    /** Volcano's TaskCompleted: as many of the task's pods succeeded as it has replicas. */
    static boolean completed(JobSpec spec, PodTally tally, String task) {
        int replicas = replicas(spec, task);
        return replicas > 0 && tally.succeeded(task) >= replicas;
    }

    /** Volcano's TaskFailed: the task's live pods restarted containers more often than its maxRetry. */
    static boolean failed(JobSpec spec, PodTally tally, String task) {
        int max = maxRetry(spec, task);
        if (replicas(spec, task) == 0 || max < 0) {
            return false;
        }
        return tally.restarts(task) > max;
    }

    /** A task's pods are created once the tasks it dependsOn have minAvailable pods running or done. */
    static boolean dependenciesReady(JobSpec spec, PodTally tally, TaskSpec t) {
        TaskDependsOn deps = t.dependsOn();
        if (deps == null || deps.namesOrEmpty().isEmpty()) {
            return true;
        }
        boolean any =
                "any".equalsIgnoreCase(deps.iteration()) && deps.namesOrEmpty().size() > 1;
        for (String dep : deps.namesOrEmpty()) {
            boolean ready = ready(spec, tally, dep);
            if (any && ready) {
                return true;
            }
            if (!any && !ready) {
                return false;
            }
        }
        return !any;
    }

    private static boolean ready(JobSpec spec, PodTally tally, String taskName) {
        TaskSpec dep = task(spec, taskName);
        if (dep == null) {
            return true;
        }
        int needed = dep.minAvailable() != null ? dep.minAvailable() : dep.replicasOrZero();
        return tally.live(taskName, PodPhase.Running) + tally.live(taskName, PodPhase.Succeeded) >= needed;
    }

    /** The task's maxRetry, Volcano's default when not given or 0. */
    static int maxRetry(JobSpec spec, String task) {
        TaskSpec t = task(spec, task);
        Integer m = t == null ? null : t.maxRetry();
        return m == null || m == 0 ? DEFAULT_MAX_RETRY : m;
    }

    /** The job's maxRetry, Volcano's default when not given or 0. */
    static int maxRetry(JobSpec spec) {
        Integer m = spec.maxRetry();
        return m == null || m == 0 ? DEFAULT_MAX_RETRY : m;
    }

    /** spec.minAvailable, the sum of the replicas when not given. */
    static int minAvailable(JobSpec spec) {
        Integer m = spec.minAvailable();
        return m != null ? m : spec.totalReplicas();
    }

    static int replicas(JobSpec spec, String task) {
        TaskSpec t = task(spec, task);
        return t == null ? 0 : t.replicasOrZero();
    }

    static TaskSpec task(JobSpec spec, String name) {
        for (TaskSpec t : spec.tasksOrEmpty()) {
            if (t.name() != null && t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
