package io.lahar.core.api;

import java.util.List;
import java.util.Map;

/** scheduling.volcano.sh/v1beta1 PodGroup: the gang the scheduler places all-or-nothing. */
public record PodGroup(String apiVersion, String kind, ObjectMeta metadata, PodGroupSpec spec, PodGroupStatus status)
        implements Manifest {

    public static final String API_VERSION = "scheduling.volcano.sh/v1beta1";
    public static final String KIND = "PodGroup";

    public record PodGroupSpec(
            Integer minMember,
            Map<String, Integer> minTaskMember,
            String queue,
            String priorityClassName,
            Map<String, String> minResources,
            NetworkTopologySpec networkTopology) {}

    public record PodGroupStatus(
            PodGroupPhase phase,
            List<PodGroupCondition> conditions,
            Integer running,
            Integer succeeded,
            Integer failed) {}

    public record PodGroupCondition(
            String type,
            String status,
            String transitionID,
            String lastTransitionTime,
            String reason,
            String message) {}
}
