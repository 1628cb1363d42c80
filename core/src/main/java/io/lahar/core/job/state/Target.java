package io.lahar.core.job.state;

/**
 * What a RestartTask, RestartPod or RestartPartition acts on: a task, one pod by name, or the pods
 * of one partition of a task (its {@code partitionPolicy}'s sub-gang).
 *
 * @param partition the partition id ({@code volcano.sh/task-partition-id}), null unless a partition
 */
public record Target(String task, String pod, Integer partition) {

    public static Target task(String task) {
        return new Target(task, null, null);
    }

    public static Target pod(String task, String pod) {
        return new Target(task, pod, null);
    }

    public static Target partition(String task, Integer partition) {
        return new Target(task, null, partition);
    }
}
