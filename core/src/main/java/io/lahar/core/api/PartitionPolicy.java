package io.lahar.core.api;

/** Splits a task's replicas into partitions: replicas = totalPartitions * partitionSize. */
public record PartitionPolicy(
        Integer totalPartitions, Integer partitionSize, Integer minPartitions, NetworkTopologySpec networkTopology) {}
