package io.lahar.scheduler.mapping;

import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.schema.PodEvent;

/**
 * A pod event to the task status it reports, as Volcano's {@code getTaskStatus}: a pending pod
 * with a node is Bound, a running pod that is being deleted is Releasing.
 */
public final class PodEventMapping {
    private PodEventMapping() {}

    /** The status the event reports, or null when the pod is gone (deleted). */
    public static TaskStatus status(PodEvent e, boolean deleting) {
        return status(e.getPhase(), e.getNode(), e.getDeleted(), deleting);
    }

    /** The status of a pod in this phase, on this node (null or empty: unbound); null when it is deleted. */
    public static TaskStatus status(CharSequence phase, CharSequence onNodeNamed, boolean deleted, boolean deleting) {
        if (deleted) return null;
        String node = Strings.of(onNodeNamed);
        boolean onNode = node != null && !node.isEmpty();
        return switch (phase.toString()) {
            case "Pending" -> onNode ? (deleting ? TaskStatus.Releasing : TaskStatus.Bound) : TaskStatus.Pending;
            case "Running" -> deleting ? TaskStatus.Releasing : TaskStatus.Running;
            case "Succeeded" -> TaskStatus.Succeeded;
            case "Failed" -> TaskStatus.Failed;
            // Unknown (or a phase added later): the pod may still hold its node.
            default -> onNode ? TaskStatus.Unknown : TaskStatus.Pending;
        };
    }
}
