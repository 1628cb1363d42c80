package io.lahar.core.job;

import java.util.SortedMap;

/**
 * Receives how a job's pods changed between two of its states ({@link #between}): what a store
 * that keeps one record per pod must put and delete.
 */
public interface PodChanges {

    /** The pod under {@code name} is new or changed. */
    void put(String name, JobPod pod);

    /** No pod is under {@code name} any more. */
    void removed(String name);

    /**
     * Tells {@code changes} how {@code after} differs from {@code before} (two {@link JobInfo#pods()}
     * maps, or any maps of pods by name), in name order. For states one came from the other by
     * {@link JobController#apply}, the cost follows the pods that changed, not the job's size.
     */
    static void between(SortedMap<String, JobPod> before, SortedMap<String, JobPod> after, PodChanges changes) {
        FrozenPods.diff(FrozenPods.copyOf(before), FrozenPods.copyOf(after), changes);
    }
}
