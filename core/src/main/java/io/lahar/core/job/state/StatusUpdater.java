package io.lahar.core.job.state;

/**
 * Decides the job's next phase from the pod counts a sync or kill has just computed (Volcano's
 * UpdateStatusFn). Returns whether it changed the phase.
 */
@FunctionalInterface
public interface StatusUpdater {

    boolean update(StatusView status);
}
