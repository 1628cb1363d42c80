package io.lahar.core.scheduling.framework;

/** A scheduling action (enqueue, allocate, backfill, preempt, reclaim, shuffle), run in the configured order. */
public interface Action {
    String name();

    /**
     * Reads the action's {@code configurations:} arguments, throwing {@link IllegalArgumentException}
     * for a bad value; {@link SchedulerConf#parse} calls it up front and refuses arguments left unread.
     */
    default void readArguments(Arguments args) {}

    void execute(Session ssn);
}
