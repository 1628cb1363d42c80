package io.lahar.core.api;

/** Network-topology constraint of a job or partition: mode hard|soft and the highest tier allowed. */
public record NetworkTopologySpec(String mode, Integer highestTierAllowed, String highestTierName) {}
