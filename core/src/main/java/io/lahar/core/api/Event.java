package io.lahar.core.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * Volcano's job events (bus/v1 events.go), with the exact strings Volcano uses. Some are raised
 * only by the controller itself, so a user policy may not name them ({@link #userSettable()}):
 * the job controller only syncs on those.
 */
public enum Event {
    ANY("*", true),
    POD_FAILED("PodFailed", true),
    POD_EVICTED("PodEvicted", true),
    POD_PENDING("PodPending", true),
    POD_RUNNING("PodRunning", false),
    JOB_UNKNOWN("Unknown", true),
    TASK_COMPLETED("TaskCompleted", true),
    TASK_FAILED("TaskFailed", true),
    JOB_UPDATED("JobUpdated", true),
    OUT_OF_SYNC("OutOfSync", false),
    COMMAND_ISSUED("CommandIssued", false);

    private final String value;
    private final boolean userSettable;

    Event(String value, boolean userSettable) {
        this.value = value;
        this.userSettable = userSettable;
    }

    @JsonValue
    public String value() {
        return value;
    }

    /** Whether a LifecyclePolicy may name this event (Volcano's policyEventMap). */
    public boolean userSettable() {
        return userSettable;
    }

    public static Optional<Event> of(String value) {
        return Arrays.stream(values()).filter(e -> e.value.equals(value)).findFirst();
    }

    @JsonCreator
    static Event fromJson(String value) {
        return of(value).orElseThrow(() -> new IllegalArgumentException("unknown event \"" + value + "\""));
    }

    @Override
    public String toString() {
        return value;
    }
}
