package io.lahar.core.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * Volcano's bus actions (bus/v1 actions.go) with their exact strings. The queue and sync actions
 * are internal to the controllers; a LifecyclePolicy may only name {@link #userSettable()} ones.
 */
public enum Action {
    ABORT_JOB("AbortJob", true),
    RESTART_JOB("RestartJob", true),
    RESTART_TASK("RestartTask", true),
    RESTART_POD("RestartPod", true),
    /** Restarts the pods of the failing pod's partition (its task's partitionPolicy), the partition a sub-gang. */
    RESTART_PARTITION("RestartPartition", true),
    TERMINATE_JOB("TerminateJob", true),
    COMPLETE_JOB("CompleteJob", true),
    RESUME_JOB("ResumeJob", true),
    SYNC_JOB("SyncJob", false),
    ENQUEUE_JOB("EnqueueJob", false),
    SYNC_QUEUE("SyncQueue", false),
    OPEN_QUEUE("OpenQueue", false),
    CLOSE_QUEUE("CloseQueue", false);

    private final String value;
    private final boolean userSettable;

    Action(String value, boolean userSettable) {
        this.value = value;
        this.userSettable = userSettable;
    }

    @JsonValue
    public String value() {
        return value;
    }

    /** Whether a LifecyclePolicy may name this action (Volcano's policyActionMap). */
    public boolean userSettable() {
        return userSettable;
    }

    public static Optional<Action> of(String value) {
        return Arrays.stream(values()).filter(a -> a.value.equals(value)).findFirst();
    }

    @JsonCreator
    static Action fromJson(String value) {
        return of(value).orElseThrow(() -> new IllegalArgumentException("unknown action \"" + value + "\""));
    }

    @Override
    public String toString() {
        return value;
    }
}
