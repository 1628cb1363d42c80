package io.lahar.core.job;

import java.util.SortedMap;

/**
 * Receives how a job's pods changed between two of its states ({@link #between}): what a store
 * that keeps a job's pods apart from the rest of its state must write.
 */
public interface PodChanges {

    /** The pod under {@code name} is new ({@code was} null) or changed from {@code was}. */
    void put(String name, JobPod was, JobPod now);

    /** No pod is under {@code name} any more; {@code was} was. */
    void removed(String name, JobPod was);

    /**
     * Tells {@code changes} how {@code after} differs from {@code before} (two {@link JobInfo#pods()}
     * maps, or any maps of pods by name), in name order. For states one came from the other by
     * {@link JobController#apply}, the cost follows the pods that changed, not the job's size.
     */
    static void between(SortedMap<String, JobPod> before, SortedMap<String, JobPod> after, PodChanges changes) {
        FrozenPods.diff(FrozenPods.copyOf(before), FrozenPods.copyOf(after), changes);
    }
}
