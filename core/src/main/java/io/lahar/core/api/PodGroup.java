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
            NetworkTopologySpec networkTopology,
            List<SubGroupPolicySpec> subGroupPolicy) {}

    /**
     * Volcano's SubGroupPolicySpec: the pods a label selector picks are split into sub-groups by the
     * values of {@code matchLabelKeys}; each sub-group is a gang of {@code subGroupSize}, and the pod
     * group is ready only when {@code minSubGroups} of them are placed whole. A Job's task with a
     * partitionPolicy makes one: its partitions are the sub-groups.
     */
    public record SubGroupPolicySpec(
            String name,
            Integer subGroupSize,
            Integer minSubGroups,
            LabelSelector labelSelector,
            List<String> matchLabelKeys) {}

    /** A label selector of equality terms (what a SubGroupPolicy needs of Kubernetes' LabelSelector). */
    public record LabelSelector(Map<String, String> matchLabels) {}

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
