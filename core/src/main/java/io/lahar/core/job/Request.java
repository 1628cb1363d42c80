package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;

/**
 * One thing the controller must react to (Volcano's apis.Request): an event, or a command's
 * action, with the pod and task it concerns. Made by the factories below, one per kind of news.
 *
 * @param action   the action a command asks for; null when policies decide
 * @param version  the job version of the pod the event is about (the current one otherwise)
 * @param cause    the event told for a person ("pod tf-job-worker-2 exited 137"), or null
 */
public record Request(
        Event event, Action action, String task, String pod, Integer exitCode, int version, String cause) {

    /** Nothing happened but the job may need reconciling (Volcano's OutOfSync). */
    public static Request sync(int version) {
        return new Request(Event.OUT_OF_SYNC, null, null, null, null, version, null);
    }

    /** A user's command: its action is taken as given. */
    public static Request command(Action action, String task, String pod, int version, String cause) {
        return new Request(Event.COMMAND_ISSUED, action, task, pod, null, version, cause);
    }

    /** An event about the whole job (JobUpdated, Unknown). */
    public static Request job(Event event, int version, String cause) {
        return new Request(event, null, null, null, null, version, cause);
    }

    /** An event about one pod, at that pod's job version. */
    public static Request pod(Event event, JobPod pod, String cause) {
        return new Request(event, null, pod.task(), pod.name(), null, pod.version(), cause);
    }

    /** A pod failed, with its first container's exit code when it terminated (exit-code policies match it). */
    public static Request podFailed(JobPod pod, Integer exitCode, String cause) {
        return new Request(Event.POD_FAILED, null, pod.task(), pod.name(), exitCode, pod.version(), cause);
    }

    /** The event a delayed action was armed for, raised again when it fires. */
    public static Request fired(Timer.DelayedAction d) {
        return new Request(d.event(), null, d.task(), d.pod(), null, d.version(), d.cause());
    }

    /** Events the controller raises for itself; policies never match them. */
    public boolean internal() {
        return !event.userSettable();
    }

    /** Events about one pod, which may cancel that pod's delayed actions. */
    public boolean aboutPod() {
        return pod != null
                && switch (event) {
                    case POD_PENDING, POD_RUNNING, POD_FAILED, POD_EVICTED -> true;
                    default -> false;
                };
    }
}
