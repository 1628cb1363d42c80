package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.ArrayList;
import java.util.List;

/** A StatusView with settable counts that enforces the state's legal targets like the engine does. */
final class FakeStatus implements StatusView {

    final PhaseState state;
    int pending;
    int running;
    int succeeded;
    int failed;
    int terminating;
    int unknown;
    int retryCount;
    int minAvailable = 3;
    int specMinAvailable = 3;
    Integer minSuccess;
    int maxRetry = 3;
    int totalReplicas = 3;
    int totalTaskMinAvailable = 3;
    List<TaskCount> tasks = new ArrayList<>();
    JobPhase movedTo;
    String reason;
    String detail;

    FakeStatus(PhaseState state) {
        this.state = state;
    }

    /** Runs {@code updater} on this status; returns what it returned. */
    boolean apply(StatusUpdater updater) {
        return updater.update(this);
    }

    @Override
    public JobPhase phase() {
        return movedTo != null ? movedTo : state.phase();
    }

    @Override
    public int pending() {
        return pending;
    }

    @Override
    public int running() {
        return running;
    }

    @Override
    public int succeeded() {
        return succeeded;
    }

    @Override
    public int failed() {
        return failed;
    }

    @Override
    public int terminating() {
        return terminating;
    }

    @Override
    public int unknown() {
        return unknown;
    }

    @Override
    public int retryCount() {
        return retryCount;
    }

    @Override
    public void incrementRetry() {
        retryCount++;
    }

    @Override
    public int minAvailable() {
        return minAvailable;
    }

    @Override
    public int specMinAvailable() {
        return specMinAvailable;
    }

    @Override
    public Integer minSuccess() {
        return minSuccess;
    }

    @Override
    public int maxRetry() {
        return maxRetry;
    }

    @Override
    public int totalReplicas() {
        return totalReplicas;
    }

    @Override
    public int totalTaskMinAvailable() {
        return totalTaskMinAvailable;
    }

    @Override
    public List<TaskCount> tasks() {
        return tasks;
    }

    @Override
    public void moveTo(JobPhase phase, String why, String text) {
        if (!state.targets().contains(phase)) {
            throw new IllegalStateException(state.phase() + " may not lead to " + phase);
        }
        movedTo = phase;
        reason = why;
        detail = text;
    }
}
