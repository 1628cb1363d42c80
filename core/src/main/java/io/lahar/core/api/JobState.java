package io.lahar.core.api;

/** The job's phase with the reason and message of its last transition. */
public record JobState(JobPhase phase, String reason, String message, String lastTransitionTime) {}
