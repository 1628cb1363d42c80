package io.lahar.core.scheduling.api;

/** A preferred node affinity term and its weight (1 to 100). */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {}
