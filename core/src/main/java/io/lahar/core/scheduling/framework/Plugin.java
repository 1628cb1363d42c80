package io.lahar.core.scheduling.framework;

/**
 * A scheduling plugin: at session open it reads the session and registers its functions
 * (orderings, predicates, scores, victim selection, gates); at session close it may write statuses.
 */
public interface Plugin {
    String name();

    void onSessionOpen(Session ssn);

    default void onSessionClose(Session ssn) {}
}
