package io.lahar.schema.codec;

import io.lahar.core.job.Input;
import io.lahar.core.job.PodPhase;
import io.lahar.schema.ContainerStatus;
import io.lahar.schema.PodEvent;

/** A {@code lahar.pod-events} record to the engine's {@link Input.PodObserved}. */
public final class PodEventCodec {

    private PodEventCodec() {
    }

    /**
     * The pod as the engine sees it. A phase this engine does not know (the schema keeps phases
     * open) reads as Unknown, as Kubernetes' own clients do. A pod deleted by someone else
     * ({@code deletedByOthers}, Volcano's PodEvicted) is gone for the engine, which tells it from
     * a deletion it asked for itself. The exit code is the first terminated container's.
     *
     * @throws IllegalArgumentException with the field path, for an event that names no pod or task
     */
    public static Input.PodObserved toInput(PodEvent event) {
        if (event.getPod() == null || event.getPod().isEmpty()) {
            throw new IllegalArgumentException("pod: the pod's name is required");
        }
        if (event.getTask() == null || event.getTask().isEmpty()) {
            throw new IllegalArgumentException("task: the pod's task (volcano.sh/task-spec) is required");
        }
        if (event.getIndex() < 0) {
            throw new IllegalArgumentException("index: must be >= 0, got " + event.getIndex());
        }
        PodPhase phase = PodPhase.of(event.getPhase()).orElse(PodPhase.Unknown);
        Integer exitCode = null;
        int restarts = 0;
        for (ContainerStatus c : event.getContainers()) {
            if (exitCode == null && c.getExitCode() != null) {
                exitCode = c.getExitCode();
            }
            restarts = Math.max(restarts, c.getRestartCount());
        }
        boolean gone = event.getDeleted() || event.getDeletedByOthers();
        return new Input.PodObserved(event.getPod(), event.getTask(), event.getIndex(), event.getJobVersion(), phase,
                exitCode, restarts, gone, event.getTime().toEpochMilli());
    }
}
