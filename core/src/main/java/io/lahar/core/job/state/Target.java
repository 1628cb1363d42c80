package io.lahar.core.job.state;

/** What a RestartTask or RestartPod acts on: a task name, or one pod by name. */
public record Target(String task, String pod) {

    public static Target task(String task) {
        return new Target(task, null);
    }

    public static Target pod(String task, String pod) {
        return new Target(task, pod);
    }
}
