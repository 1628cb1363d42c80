package io.lahar.core.job;

import java.util.List;

/** The result of applying one {@link Input}: the new state, the phase changes, the world's work. */
public record Outcome(JobInfo state, List<Transition> transitions, List<WorldAction> actions) {}
