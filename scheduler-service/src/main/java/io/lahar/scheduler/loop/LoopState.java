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
    /** Stopped by an error it cannot recover from. */
    FAILED
}
