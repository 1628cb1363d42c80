package io.lahar.core.job;

import io.lahar.core.api.Action;

/**
 * One thing the controller must react to (Volcano's apis.Request): an event, or a command's
 * action, with the pod and task it concerns.
 *
 * @param event    the event's name ({@code PodFailed}, {@code OutOfSync}, the internal
 *                 {@code PodRunning}...)
 * @param action   the action a command asks for; null when policies decide
 * @param version  the job version of the pod the event is about (the current one otherwise)
 * @param cause    the event told for a person ("pod tf-job-worker-2 exited 137"), or null
 */
public record Request(
        String event,
        Action action,
        String task,
        String pod,
        Integer exitCode,
        int version,
        String cause) {

    public static final String OUT_OF_SYNC = "OutOfSync";
    public static final String COMMAND_ISSUED = "CommandIssued";
    public static final String POD_RUNNING = "PodRunning";
    public static final String POD_PENDING = "PodPending";
    public static final String POD_FAILED = "PodFailed";
    public static final String POD_EVICTED = "PodEvicted";
    public static final String TASK_COMPLETED = "TaskCompleted";
    public static final String TASK_FAILED = "TaskFailed";
    public static final String JOB_UNKNOWN = "Unknown";
    public static final String JOB_UPDATED = "JobUpdated";

    public static Request sync(int version) {
        return new Request(OUT_OF_SYNC, null, null, null, null, version, null);
    }

    /** Events the controller raises for itself; policies never match them. */
    public boolean internal() {
        return event == null || event.equals(OUT_OF_SYNC) || event.equals(COMMAND_ISSUED)
                || event.equals(POD_RUNNING);
    }

    /** Events about one pod, which may cancel that pod's delayed actions. */
    public boolean aboutPod() {
        return pod != null && (event.equals(POD_PENDING) || event.equals(POD_RUNNING)
                || event.equals(POD_FAILED) || event.equals(POD_EVICTED));
    }
}
