package io.lahar.core.job.state;

/**
 * What a phase's state may ask of the controller (Volcano's SyncJob / KillJob / KillTarget).
 * Each recounts the pods, then lets the updater move the phase.
 */
public interface JobActions {

    /** Create the pods that are missing (once the pod group is Inqueue), recount, update. */
    void syncJob(StatusUpdater updater);

    /** Delete every pod not retained, bump the version, delete the pod group, recount, update. */
    void killJob(RetainPhases retain, StatusUpdater updater);

    /**
     * Delete the pods of one task, one pod or one partition (RestartTask, RestartPod,
     * RestartPartition), recount, update; a partition without pods is left alone, not updated.
     */
    void killTarget(Target target, StatusUpdater updater);

    /** Whether any pod is still there and not being deleted. */
    boolean hasLivePods();
}
