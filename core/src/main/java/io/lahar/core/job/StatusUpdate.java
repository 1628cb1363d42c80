package io.lahar.core.job;

import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.state.PhaseState;
import io.lahar.core.job.state.StatusView;
import java.util.ArrayList;
import java.util.List;

/**
 * The status as a phase state's updater sees it during one update: the counts just made, the
 * spec's numbers, and a move that only the current state's targets allow.
 */
final class StatusUpdate implements StatusView {

    /** Records a move the current state allowed. */
    @FunctionalInterface
    interface Mover {
        void move(JobPhase to, String reason, String detail, boolean retried);
    }

    private final RunStatus status;
    private final JobSpec spec;
    private final PhaseState state;
    private final Mover mover;
    private boolean retried;

    StatusUpdate(RunStatus status, JobSpec spec, PhaseState state, Mover mover) {
        this.status = status;
        this.spec = spec;
        this.state = state;
        this.mover = mover;
    }

    @Override
    public JobPhase phase() {
        return status.phase();
    }

    @Override
    public int pending() {
        return status.counts().pending();
    }

    @Override
    public int running() {
        return status.counts().running();
    }

    @Override
    public int succeeded() {
        return status.counts().succeeded();
    }

    @Override
    public int failed() {
        return status.counts().failed();
    }

    @Override
    public int terminating() {
        return status.counts().terminating();
    }

    @Override
    public int unknown() {
        return status.counts().unknown();
    }

    @Override
    public int retryCount() {
        return status.retryCount();
    }

    @Override
    public void incrementRetry() {
        status.incrementRetry();
        retried = true;
    }

    @Override
    public int minAvailable() {
        return status.minAvailable();
    }

    @Override
    public int specMinAvailable() {
        return TaskChecks.minAvailable(spec);
    }

    @Override
    public Integer minSuccess() {
        return spec.minSuccess();
    }

    @Override
    public int maxRetry() {
        return TaskChecks.maxRetry(spec);
    }

    @Override
    public int totalReplicas() {
        return spec.totalReplicas();
    }

    @Override
    public int totalTaskMinAvailable() {
        return spec.tasksOrEmpty().stream()
                .mapToInt(t -> t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero())
                .sum();
    }

    @Override
    public List<TaskCount> tasks() {
        List<TaskCount> out = new ArrayList<>();
        TaskCounts counts = status.counts().tasks();
        for (TaskSpec t : spec.tasksOrEmpty()) {
            // Volcano only judges a task that has counted pods (TaskStatusCount holds it).
            if (counts.counted(t.name())) {
                out.add(new TaskCount(t.name(), t.minAvailable(), counts.count(t.name(), PodPhase.Succeeded)));
            }
        }
        return out;
    }

    @Override
    public void moveTo(JobPhase to, String why, String detail) {
        if (!state.targets().contains(to)) {
            throw new IllegalStateException("phase " + state.phase() + " may not lead to " + to);
        }
        mover.move(to, why, detail, retried);
    }
}
