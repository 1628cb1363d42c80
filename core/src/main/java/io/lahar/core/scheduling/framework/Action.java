package io.lahar.core.scheduling.framework;

/** A scheduling action (enqueue, allocate, backfill, preempt, reclaim), run in the configured order. */
public interface Action {
    String name();

    void execute(Session ssn);
}
