package io.lahar.core.flow;

/** Where a flow stands after a sync: still going, or finished one way or the other. */
public enum FlowProgress {
    /** Some entry still waits, backs off, or has a job that has not ended. */
    ACTIVE,
    /** Nothing more will happen and every job completed (or failed into a {@code when} branch made for it). */
    SUCCEEDED,
    /** Some job ended Failed or Terminated with nothing to handle it: the flow fails at once, whatever else still runs. */
    FAILED
}
