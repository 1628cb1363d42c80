package io.lahar.core.scheduling.api;

/** A preferred pod (anti-)affinity term and its weight (1 to 100). */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
