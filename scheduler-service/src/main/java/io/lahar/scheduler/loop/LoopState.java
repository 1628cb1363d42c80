package io.lahar.scheduler.loop;

/** Where a scheduling loop is in its life; health checks report it. */
public enum LoopState {
    /** Not started yet. */
    NEW,
    /** Fenced its predecessor and reading every input to its end before deciding anything. */
    CATCHING_UP,
    /** Deciding: the one writer of the decisions topic. */
    ACTIVE,
    /** A newer instance with the same transactional id took over; this one stopped writing. */
    FENCED,
    /** Stopped on request. */
    STOPPED,
    /**
     * The loop failed (a broker outage outlasted its clients' timeouts, or another error); a new
     * loop with new clients starts after a pause ({@link LoopSupervisor}).
     */
    RESTARTING,
    /** Stopped by an error: the loop itself ends so; the service reports it only when no restart can help. */
    FAILED
}
