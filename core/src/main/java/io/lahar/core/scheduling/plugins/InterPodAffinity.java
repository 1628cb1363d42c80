package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.WeightedPodAffinityTerm;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.Functions.Refused;
import io.lahar.core.scheduling.framework.PodTopology;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' InterPodAffinity filter, as Volcano's predicates plugin runs it: a node fails when
 * the domain of one of the pod's required affinity terms holds no pod matching all of them (unless
 * no such pod exists anywhere and the pod matches its own terms: the first of a series); when the
 * domain of one of its required anti-affinity terms holds a matching pod; or when a placed pod's
 * required anti-affinity term matches this pod and that pod's domain is the node's (symmetry).
 * Counts come from {@link PodTopology}, so pods placed earlier in the session, the gang's own
 * included, count.
 *
 * <p>The score (nodeorder's {@code podaffinity.weight}): for the node's domain of each term, the
 * term's weight per pod there matching the pod's preferred affinity terms (minus for preferred
 * anti-affinity), plus the weights of the placed pods' preferred terms that match this pod (a
 * required affinity term of a placed pod adds Kubernetes' hardPodAffinityWeight, which Volcano
 * leaves at 0); normalized over the candidates from 0 (the least) to 100 (the most).
 */
final class InterPodAffinity {
    static final String AFFINITY_NOT_MATCH = "node(s) didn't match pod affinity rules";
    static final String ANTI_AFFINITY_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
    static final String EXISTING_ANTI_AFFINITY_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";

    private InterPodAffinity() {}

    /** The prepared filter of one task (Kubernetes' preFilterState). */
    static final class Filter {
        private final PodTopology.Counter affinity;
        private final boolean selfMatch;
        private final List<PodTopology.Counter> anti;
        private final List<PodTopology.Carried> existing;

        private Filter(
                PodTopology.Counter affinity,
                boolean selfMatch,
                List<PodTopology.Counter> anti,
                List<PodTopology.Carried> existing) {
            this.affinity = affinity;
            this.selfMatch = selfMatch;
            this.anti = anti;
            this.existing = existing;
        }

        /** Null when the node passes, else the reason (the first rule that fails, in Kubernetes' order). */
        String check(SessionNode node) {
            int n = node.index();
            if (affinity != null && !satisfiesAffinity(n)) return AFFINITY_NOT_MATCH;
            for (PodTopology.Counter c : anti) {
                if (c.at(0, n) > 0) return ANTI_AFFINITY_NOT_MATCH;
            }
            for (PodTopology.Carried c : existing) {
                if (c.at(n) > 0) return EXISTING_ANTI_AFFINITY_NOT_MATCH;
            }
            return null;
        }

        private boolean satisfiesAffinity(int n) {
            boolean podsExist = true;
            for (int k = 0; k < affinity.keys(); k++) {
                int at = affinity.at(k, n);
                if (at < 0) return false; // the node lacks a topology key
                if (at == 0) podsExist = false;
            }
            if (podsExist) return true;
            for (int k = 0; k < affinity.keys(); k++) {
                if (affinity.total(k) > 0) return false;
            }
            return selfMatch;
        }

        /** The domains a required affinity refuses now (none match yet); more pods there would lift it. */
        List<Refused> liftable() {
            if (affinity == null) return List.of();
            boolean anyMatch = false;
            for (int k = 0; k < affinity.keys(); k++) anyMatch |= affinity.total(k) > 0;
            if (!anyMatch && selfMatch) return List.of(); // the first of a series may go anywhere with the keys
            List<Refused> out = new ArrayList<>();
            for (int k = 0; k < affinity.keys(); k++) {
                PodTopology.Domains d = affinity.domains(k);
                if (d.size() > Refused.MAX_DOMAINS) return null;
                BitSet none = new BitSet(d.size());
                for (int v = 0; v < d.size(); v++) {
                    if (affinity.inDomain(k, v) == 0) none.set(v);
                }
                out.add(new Refused(d, none, AFFINITY_NOT_MATCH));
            }
            return out;
        }
    }

    /** Null when the task has no inter-pod rule to meet (Kubernetes' Skip). */
    static Filter preFilter(PodTopology topo, SessionTask task) {
        String ns = task.job().info().namespace();
        PodSpec spec = task.info().spec();
        List<PodTopology.Carried> existing = topo.repelling(ns, spec.labels());
        if (spec.requiredAffinity().isEmpty() && spec.requiredAntiAffinity().isEmpty() && existing.isEmpty())
            return null;
        PodTopology.Counter affinity = null;
        boolean self = false;
        if (!spec.requiredAffinity().isEmpty()) {
            List<PodAffinityTerm> terms = resolved(spec.requiredAffinity(), ns);
            affinity = topo.counter(terms, null);
            Map<String, String> nsLabels = topo.namespaceLabels(ns);
            self = true;
            for (PodAffinityTerm t : terms) self &= t.matches(ns, nsLabels, spec.labels());
        }
        List<PodTopology.Counter> anti =
                new ArrayList<>(spec.requiredAntiAffinity().size());
        for (PodAffinityTerm t : spec.requiredAntiAffinity()) anti.add(topo.counter(List.of(t.resolvedFor(ns)), null));
        return new Filter(affinity, self, anti, existing);
    }

    /** The score of one task (Kubernetes' PreScore); null when no preferred term concerns it (Skip). */
    static BatchScorer scorer(PodTopology topo, SessionTask task, int weight) {
        String ns = task.job().info().namespace();
        PodSpec spec = task.info().spec();
        List<PodTopology.Weighted> existing = topo.preferring(ns, spec.labels());
        if (spec.preferredAffinity().isEmpty() && spec.preferredAntiAffinity().isEmpty() && existing.isEmpty())
            return null;
        List<PodTopology.Counter> counters = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        for (WeightedPodAffinityTerm t : spec.preferredAffinity()) {
            counters.add(topo.counter(List.of(t.term().resolvedFor(ns)), null));
            weights.add(t.weight());
        }
        for (WeightedPodAffinityTerm t : spec.preferredAntiAffinity()) {
            counters.add(topo.counter(List.of(t.term().resolvedFor(ns)), null));
            weights.add(-t.weight());
        }
        return (candidates, scores) -> {
            long[] raw = new long[candidates.size()];
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < raw.length; i++) {
                int n = candidates.get(i).index();
                long r = 0;
                for (int k = 0; k < counters.size(); k++)
                    r += (long) weights.get(k) * Math.max(0, counters.get(k).at(0, n));
                for (PodTopology.Weighted e : existing)
                    r += (long) e.weight() * e.carried().at(n);
                raw[i] = r;
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
            if (max == min) return; // every node 0
            for (int i = 0; i < raw.length; i++) {
                scores[i] +=
                        weight * (double) (long) (NodeOrder.MAX_NODE_SCORE * ((double) (raw[i] - min) / (max - min)));
            }
        };
    }

    static List<PodAffinityTerm> resolved(List<PodAffinityTerm> terms, String namespace) {
        List<PodAffinityTerm> out = new ArrayList<>(terms.size());
        for (PodAffinityTerm t : terms) out.add(t.resolvedFor(namespace));
        return out;
    }
}
