package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.PodEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A watched pod as the pod event the job state machine consumes. The pod watch reads only the fields
 * of a pod read here ({@link ManagedPods}): a field read here must be read there too.
 */
public final class PodEvents {

    private PodEvents() {}

    /** Whether the pod carries what a pod event needs (the job it belongs to). */
    public static boolean isJobPod(Pod pod) {
        return label(pod, PodLabels.JOB_NAME).isPresent();
    }

    /**
     * @param deleted         the pod no longer exists
     * @param deletedByOthers it was deleted by someone other than the engine (Volcano's PodEvicted)
     */
    public static PodEvent event(Pod pod, boolean deleted, boolean deletedByOthers, Instant time) {
        var status = pod.getStatus();
        String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
        List<ContainerStatus> containers =
                status == null || status.getContainerStatuses() == null ? List.of() : status.getContainerStatuses();
        String name = pod.getMetadata().getName();
        return PodEvent.newBuilder()
                .setNamespace(pod.getMetadata().getNamespace())
                .setJob(label(pod, PodLabels.JOB_NAME).orElse(""))
                .setPod(name)
                .setUid(pod.getMetadata().getUid())
                .setJobUid(annotation(pod, BridgeLabels.JOB_UID).orElse(null))
                .setTask(label(pod, PodLabels.TASK_SPEC).orElse(""))
                .setIndex(Pods.intAnnotation(pod, PodLabels.TASK_INDEX).orElseGet(() -> indexFromName(name)))
                .setJobVersion(Pods.jobVersion(pod))
                .setPhase(phase)
                .setContainers(containers.stream().map(PodEvents::container).toList())
                .setNode(pod.getSpec() == null ? null : pod.getSpec().getNodeName())
                .setDeleted(deleted)
                .setDeletedByOthers(deletedByOthers)
                .setReason(status == null ? null : status.getReason())
                .setMessage(status == null ? null : status.getMessage())
                .setTime(time)
                .setScheduledTime(Pods.scheduledTime(pod))
                .build();
    }

    /** The last termination of the container: the current state when terminated, else the previous one. */
    static io.lahar.schema.ContainerStatus container(ContainerStatus status) {
        ContainerState state = status.getState();
        ContainerStateTerminated terminated = state != null && state.getTerminated() != null
                ? state.getTerminated()
                : status.getLastState() == null ? null : status.getLastState().getTerminated();
        String reason = null;
        if (state != null && state.getTerminated() != null) {
            reason = state.getTerminated().getReason();
        } else if (state != null && state.getWaiting() != null) {
            reason = state.getWaiting().getReason();
        }
        return io.lahar.schema.ContainerStatus.newBuilder()
                .setName(status.getName())
                .setExitCode(terminated == null ? null : terminated.getExitCode())
                .setReason(reason)
                .setRestartCount(status.getRestartCount() == null ? 0 : status.getRestartCount())
                .build();
    }

    /** Volcano's pod names end in the index: {@code <job>-<task>-<index>}. */
    static int indexFromName(String name) {
        int dash = name.lastIndexOf('-');
        try {
            return dash < 0 ? 0 : Integer.parseInt(name.substring(dash + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static Optional<String> label(Pod pod, String key) {
        return get(pod.getMetadata().getLabels(), key);
    }

    static Optional<String> annotation(Pod pod, String key) {
        return get(pod.getMetadata().getAnnotations(), key);
    }

    private static Optional<String> get(Map<String, String> map, String key) {
        return map == null ? Optional.empty() : Optional.ofNullable(map.get(key));
    }
}
