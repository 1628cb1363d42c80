package io.lahar.core.scheduling.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What placement reads of a pod beyond its request, node selector, required node affinity and
 * tolerations (which {@link TaskInfo} carries): its labels, preferred node affinity, inter-pod
 * affinity and anti-affinity (required and preferred), topology spread constraints, the host ports
 * of its containers and their images (init containers first, one entry per container).
 */
public record PodSpec(
        Map<String, String> labels,
        List<PreferredSchedulingTerm> preferredNodeAffinity,
        List<PodAffinityTerm> requiredAffinity,
        List<PodAffinityTerm> requiredAntiAffinity,
        List<WeightedPodAffinityTerm> preferredAffinity,
        List<WeightedPodAffinityTerm> preferredAntiAffinity,
        List<TopologySpreadConstraint> topologySpread,
        List<HostPort> hostPorts,
        List<String> images) {

    public static final PodSpec NONE = new PodSpec(null, null, null, null, null, null, null, null, null);

    public PodSpec {
        labels = labels == null ? Map.of() : Map.copyOf(new TreeMap<>(labels));
        preferredNodeAffinity = copy(preferredNodeAffinity);
        requiredAffinity = copy(requiredAffinity);
        requiredAntiAffinity = copy(requiredAntiAffinity);
        preferredAffinity = copy(preferredAffinity);
        preferredAntiAffinity = copy(preferredAntiAffinity);
        topologySpread = copy(topologySpread);
        hostPorts = copy(hostPorts);
        images = copy(images);
    }

    private static <T> List<T> copy(List<T> l) {
        return l == null ? List.of() : List.copyOf(l);
    }

    public static PodSpec labels(Map<String, String> labels) {
        return new PodSpec(labels, null, null, null, null, null, null, null, null);
    }

    /** Whether the pod has inter-pod terms of its own, required or preferred. */
    public boolean hasPodAffinity() {
        return !requiredAffinity.isEmpty()
                || !requiredAntiAffinity.isEmpty()
                || !preferredAffinity.isEmpty()
                || !preferredAntiAffinity.isEmpty();
    }

    /** Whether the inter-pod rules must see this pod: it has pod (anti-)affinity, spread constraints or host ports. */
    public boolean interPod() {
        return hasPodAffinity() || !topologySpread.isEmpty() || !hostPorts.isEmpty();
    }

    /** Whether anything here constrains or scores placement beyond the pod's labels. */
    public boolean constrains() {
        return hasPodAffinity()
                || !topologySpread.isEmpty()
                || !hostPorts.isEmpty()
                || !preferredNodeAffinity.isEmpty()
                || !images.isEmpty();
    }

    /** Adds the label keys this pod's selectors name (terms, namespace selectors aside, and spread constraints). */
    public void selectorKeys(java.util.Set<String> into) {
        for (PodAffinityTerm t : requiredAffinity) keys(t.labelSelector(), into);
        for (PodAffinityTerm t : requiredAntiAffinity) keys(t.labelSelector(), into);
        for (WeightedPodAffinityTerm t : preferredAffinity) keys(t.term().labelSelector(), into);
        for (WeightedPodAffinityTerm t : preferredAntiAffinity) keys(t.term().labelSelector(), into);
        for (TopologySpreadConstraint c : topologySpread) keys(c.labelSelector(), into);
    }

    private static void keys(LabelSelector s, java.util.Set<String> into) {
        into.addAll(s.matchLabels().keySet());
        for (LabelSelector.Requirement r : s.matchExpressions()) into.add(r.key());
    }

    public PodSpec withLabels(Map<String, String> l) {
        return new PodSpec(
                l,
                preferredNodeAffinity,
                requiredAffinity,
                requiredAntiAffinity,
                preferredAffinity,
                preferredAntiAffinity,
                topologySpread,
                hostPorts,
                images);
    }
}
