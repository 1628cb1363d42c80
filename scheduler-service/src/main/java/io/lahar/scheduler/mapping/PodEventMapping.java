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
        if (e.getDeleted()) return null;
        String node = Strings.of(e.getNode());
        boolean onNode = node != null && !node.isEmpty();
        return switch (e.getPhase().toString()) {
            case "Pending" -> onNode ? (deleting ? TaskStatus.Releasing : TaskStatus.Bound) : TaskStatus.Pending;
            case "Running" -> deleting ? TaskStatus.Releasing : TaskStatus.Running;
            case "Succeeded" -> TaskStatus.Succeeded;
            case "Failed" -> TaskStatus.Failed;
            // Unknown (or a phase added later): the pod may still hold its node.
            default -> onNode ? TaskStatus.Unknown : TaskStatus.Pending;
        };
    }
}
