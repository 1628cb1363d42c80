package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobSpec;
import io.lahar.core.job.state.Target;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a RestartTask, RestartPod or RestartPartition acts on (Volcano's killTarget): the target an
 * action's request names, and the pods it selects. A command or a delayed action names only a pod;
 * its task and partition come from the pod.
 */
final class KillTargets {

    private KillTargets() {}

    /** The target of {@code action} for a request about {@code task} and {@code pod}; null for a job-wide action. */
    static Target of(Action action, String task, String pod, JobSpec spec, FrozenPods.Builder pods) {
        return switch (action) {
            case RESTART_TASK -> Target.task(task);
            case RESTART_POD -> Target.pod(task, pod);
            case RESTART_PARTITION -> {
                JobPod p = pod == null ? null : pods.get(pod);
                yield Target.partition(p == null ? null : p.task(), partitionOf(spec, p));
            }
            default -> null;
        };
    }

    /** The pods {@code target} selects; none for no target. */
    static Predicate<JobPod> pods(Target target, JobSpec spec) {
        if (target == null) {
            return p -> false;
        }
        if (target.pod() != null) {
            return p -> target.pod().equals(p.name());
        }
        return p -> Objects.equals(target.task(), p.task())
                && (target.partition() == null || target.partition().equals(partitionOf(spec, p)));
    }

    /**
     * Whether a RestartPartition finds no partition to restart: its pod is gone, its task has no
     * partitionPolicy, or the partition has no pods left. Volcano's killPods then skips the action:
     * nothing is restarted or counted against maxRetry.
     */
    static boolean nothingToRestart(Target target, JobSpec spec, FrozenPods.Builder pods) {
        return target == null
                || target.partition() == null
                || pods.values().stream().noneMatch(pods(target, spec));
    }

    /** The partition of a pod (by its task's partitionPolicy); null when it has none or is unknown. */
    static Integer partitionOf(JobSpec spec, JobPod p) {
        return p == null ? null : JobPods.partition(TaskChecks.task(spec, p.task()), p.index());
    }
}
