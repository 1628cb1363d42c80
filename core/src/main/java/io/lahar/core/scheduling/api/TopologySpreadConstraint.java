package io.lahar.core.scheduling.api;

/**
 * Kubernetes' TopologySpreadConstraint, with the defaults its scheduler applies: {@code minDomains}
 * 1, {@code nodeAffinityPolicy} Honor, {@code nodeTaintsPolicy} Ignore; {@code matchLabelKeys} is
 * already merged into the selector when the pod is read.
 */
public record TopologySpreadConstraint(
        int maxSkew,
        String topologyKey,
        WhenUnsatisfiable whenUnsatisfiable,
        LabelSelector labelSelector,
        int minDomains,
        Policy nodeAffinityPolicy,
        Policy nodeTaintsPolicy) {

    public enum WhenUnsatisfiable {
        DoNotSchedule,
        ScheduleAnyway
    }

    /** Kubernetes' NodeInclusionPolicy. */
    public enum Policy {
        Honor,
        Ignore
    }

    public TopologySpreadConstraint {
        labelSelector = labelSelector == null ? LabelSelector.NOTHING : labelSelector;
        nodeAffinityPolicy = nodeAffinityPolicy == null ? Policy.Honor : nodeAffinityPolicy;
        nodeTaintsPolicy = nodeTaintsPolicy == null ? Policy.Ignore : nodeTaintsPolicy;
        minDomains = minDomains <= 0 ? 1 : minDomains;
    }

    public boolean hard() {
        return whenUnsatisfiable == WhenUnsatisfiable.DoNotSchedule;
    }
}
