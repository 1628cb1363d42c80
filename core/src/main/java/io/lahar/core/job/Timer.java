package io.lahar.core.job;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.Action;
import io.lahar.core.api.Event;

/**
 * Something that fires at a due time (epoch milliseconds of event time). Kept in the job's
 * state, so a replay of the same records fires the same timers.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Timer.DelayedAction.class, name = "DelayedAction"),
    @JsonSubTypes.Type(value = Timer.TtlAfterFinished.class, name = "TtlAfterFinished")
})
public sealed interface Timer {

    long due();

    /**
     * A lifecycle policy with a {@code timeout}: {@code action} runs at {@code due} unless the
     * pod's phase changed first (Volcano's delayAction). {@code version} is the job version the
     * timer was armed in; a restart in between cancels it.
     */
    record DelayedAction(
            long due, Event event, Action action, String task, String pod, int version, String policy, String cause)
            implements Timer {}

    /** ttlSecondsAfterFinished: the finished job is deleted at {@code due}. */
    record TtlAfterFinished(long due) implements Timer {}
}
