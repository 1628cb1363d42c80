package io.lahar.core.scheduling.api;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kubernetes' PodAffinityTerm: the pods matching {@code labelSelector} in the given namespaces
 * (the owning pod's own namespace when neither {@code namespaces} nor {@code namespaceSelector} is
 * given; every namespace whose labels match {@code namespaceSelector} besides those named), counted
 * per value of the node label {@code topologyKey}. {@code matchLabelKeys}/{@code mismatchLabelKeys}
 * are already merged into the selector when the pod is read.
 *
 * @param namespaceSelector null when absent
 */
public record PodAffinityTerm(
        LabelSelector labelSelector, Set<String> namespaces, LabelSelector namespaceSelector, String topologyKey) {

    public PodAffinityTerm {
        labelSelector = labelSelector == null ? LabelSelector.NOTHING : labelSelector;
        namespaces = namespaces == null ? Set.of() : Set.copyOf(new TreeSet<>(namespaces));
    }

    /** The term as it applies to a pod of {@code ownerNamespace}: its own namespace when none is given. */
    public PodAffinityTerm resolvedFor(String ownerNamespace) {
        if (!namespaces.isEmpty() || namespaceSelector != null) return this;
        return new PodAffinityTerm(labelSelector, Set.of(ownerNamespace), null, topologyKey);
    }

    /**
     * Whether a pod of namespace {@code namespace} (with that namespace's labels) and labels
     * {@code labels} matches this (resolved) term: Kubernetes' {@code AffinityTerm.Matches}.
     */
    public boolean matches(String namespace, Map<String, String> namespaceLabels, Map<String, String> labels) {
        boolean ns = namespaces.contains(namespace)
                || (namespaceSelector != null && namespaceSelector.matches(namespaceLabels));
        return ns && labelSelector.matches(labels);
    }
}
