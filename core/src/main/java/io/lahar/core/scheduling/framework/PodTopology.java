package io.lahar.core.scheduling.framework;

import io.lahar.core.scheduling.api.ForeignPod;
import io.lahar.core.scheduling.api.HostPort;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.WeightedPodAffinityTerm;
import io.lahar.core.scheduling.framework.Functions.EventHandler;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the session's pods are, by topology domain, for the inter-pod rules: Kubernetes'
 * InterPodAffinity and PodTopologySpread count the pods matching a term in each domain of a node
 * label, and NodePorts looks at the host ports in use on a node. Scanning every pod for every node
 * would cost pods × nodes per placement, so this keeps, incrementally as tasks are allocated,
 * pipelined, evicted or undone:
 *
 * <ul>
 *   <li>per node label, each node's domain (its label value);</li>
 *   <li>the placed pods by label ({@code key=value}), so the pods a selector matches are found
 *       without a scan;</li>
 *   <li>{@link Counter}s: per term (or conjunction of terms), the matching pods per domain, made on
 *       first use and kept current by looking up, for a pod that comes or goes, only the counters
 *       anchored at one of its labels;</li>
 *   <li>{@link Carried} terms: the anti-affinity (and preferred) terms placed pods carry, with their
 *       carriers per domain, so an incoming pod finds the terms that repel it (Kubernetes' symmetry);</li>
 *   <li>the host ports in use per node.</li>
 * </ul>
 *
 * <p>A pod counts from allocation (or pipelining) to its eviction: a pod being evicted (Releasing)
 * has left the predicates' picture, as Volcano's evict removes it there; succeeded and failed pods
 * hold no node. Tasks placed in the session count at once, so the pods of one gang count for each
 * other. Made on first use by a session whose snapshot has inter-pod rules at all.
 */
public final class PodTopology implements EventHandler {

    /** One node label's domains: each node's domain index, -1 when the node lacks the label. */
    public record Domains(String key, int[] ofNode, List<String> values) {
        public int of(int node) {
            return ofNode[node];
        }

        public int size() {
            return values.size();
        }
    }

    /** A pod on a node, as the inter-pod rules see it. */
    static final class Placed {
        final String namespace;
        final Map<String, String> nsLabels;
        final PodSpec spec;
        final int node;

        Placed(String namespace, Map<String, String> nsLabels, PodSpec spec, int node) {
            this.namespace = namespace;
            this.nsLabels = nsLabels;
            this.spec = spec;
            this.node = node;
        }
    }

    /**
     * The pods matching every one of {@code terms} (each resolved to its namespaces), counted per
     * domain of each term's topology key, on the nodes of {@code eligible} (null: all); for a single
     * key, the least count over the domains that hold an eligible node, as topology spread needs it.
     */
    public final class Counter {
        final List<PodAffinityTerm> terms;
        final Domains[] domains;
        final int[][] count;
        final int[] total;
        final BitSet eligible;
        private final Map<Integer, Integer> domainsAtCount = new HashMap<>();
        private final boolean[] eligibleDomain;
        private int eligibleDomains;
        private int min = Integer.MAX_VALUE;

        Counter(List<PodAffinityTerm> terms, BitSet eligible) {
            this.terms = terms;
            this.eligible = eligible;
            List<String> keys = new ArrayList<>();
            for (PodAffinityTerm t : terms) if (!keys.contains(t.topologyKey())) keys.add(t.topologyKey());
            domains = new Domains[keys.size()];
            count = new int[keys.size()][];
            total = new int[keys.size()];
            for (int k = 0; k < keys.size(); k++) {
                domains[k] = PodTopology.this.domains(keys.get(k));
                count[k] = new int[domains[k].size()];
            }
            eligibleDomain = new boolean[domains[0].size()];
            for (int n = 0; n < nodeCount; n++) {
                int d = domains[0].of(n);
                if (d >= 0 && (eligible == null || eligible.get(n)) && !eligibleDomain[d]) {
                    eligibleDomain[d] = true;
                    eligibleDomains++;
                }
            }
            for (Placed p : candidates(terms.get(0).labelSelector())) {
                if (matches(p)) add(p.node, 1);
            }
            for (int d = 0; d < eligibleDomain.length; d++) {
                if (!eligibleDomain[d]) continue;
                domainsAtCount.merge(count[0][d], 1, Integer::sum);
                min = Math.min(min, count[0][d]);
            }
        }

        boolean matches(Placed p) {
            for (PodAffinityTerm t : terms) {
                if (!t.matches(p.namespace, p.nsLabels, p.spec.labels())) return false;
            }
            return true;
        }

        void add(int node, int delta) {
            if (eligible != null && !eligible.get(node)) return;
            for (int k = 0; k < domains.length; k++) {
                int d = domains[k].of(node);
                if (d < 0) continue;
                int old = count[k][d];
                count[k][d] = old + delta;
                total[k] += delta;
                if (k == 0 && eligibleDomain[d] && !domainsAtCount.isEmpty()) updateMin(old, old + delta);
            }
        }

        /** Kubernetes' updateMin: exact under +-1 steps, without a scan. */
        private void updateMin(int old, int cur) {
            int left = domainsAtCount.merge(old, -1, Integer::sum);
            if (left <= 0) domainsAtCount.remove(old);
            domainsAtCount.merge(cur, 1, Integer::sum);
            if (cur < min) min = cur;
            else if (old == min && left <= 0) min = cur;
        }

        /** Matching pods in the node's domain of the k-th key; -1 when the node lacks that key. */
        public int at(int k, int node) {
            int d = domains[k].of(node);
            return d < 0 ? -1 : count[k][d];
        }

        public int keys() {
            return domains.length;
        }

        /** Matching pods in domain {@code d} of the k-th key. */
        public int inDomain(int k, int d) {
            return count[k][d];
        }

        /** Matching pods on nodes that carry the k-th key. */
        public int total(int k) {
            return total[k];
        }

        /** The least count over the eligible domains of the first key; 0 when fewer than {@code minDomains}. */
        public int min(int minDomains) {
            return eligibleDomains < minDomains ? 0 : min;
        }

        public Domains domains(int k) {
            return domains[k];
        }
    }

    /** A term that placed pods carry, with how many carriers each domain of its key holds. */
    public static final class Carried {
        final PodAffinityTerm term;
        final Domains domains;
        final int[] count;

        Carried(PodAffinityTerm term, Domains domains) {
            this.term = term;
            this.domains = domains;
            this.count = new int[domains.size()];
        }

        /** Carriers in the node's domain (0 when the node lacks the key). */
        public int at(int node) {
            int d = domains.of(node);
            return d < 0 ? 0 : count[d];
        }

        public PodAffinityTerm term() {
            return term;
        }
    }

    /** What kind of term a pod carries, and the sign and weight it adds to scores. */
    enum Kind {
        REQUIRED_ANTI,
        PREFERRED
    }

    private record CarriedKey(Kind kind, PodAffinityTerm term, int weight) {}

    /** A carried preferred term and its signed weight (positive affinity, negative anti-affinity). */
    public record Weighted(Carried carried, int weight) {}

    private record CounterKey(List<PodAffinityTerm> terms, BitSet eligible) {}

    private record Asker(String namespace, Map<String, String> labels, Kind kind) {}

    private final Session ssn;
    private final int nodeCount;
    private final Map<String, Domains> domains = new HashMap<>();
    private final Map<SessionTask, Placed> placedTasks = new IdentityHashMap<>();
    private final List<Placed> foreign = new ArrayList<>();
    private final Map<String, Map<String, Set<Placed>>> byLabel = new HashMap<>();
    private final Map<CounterKey, Counter> counters = new HashMap<>();
    private final Map<String, List<Counter>> countersByAnchor = new HashMap<>();
    private final List<Counter> unanchoredCounters = new ArrayList<>();
    private final Map<CarriedKey, Carried> carried = new HashMap<>();
    private final Map<String, List<CarriedKey>> carriedByAnchor = new HashMap<>();
    private final List<CarriedKey> unanchoredCarried = new ArrayList<>();
    private final Map<Asker, Object> matchingCarried = new HashMap<>();
    private int carriedGeneration;
    private final Map<Asker, Integer> matchingGeneration = new HashMap<>();
    private final Map<Integer, List<HostPort>> ports = new HashMap<>();
    private final Map<String, Map<String, String>> nsLabelCache = new HashMap<>();

    PodTopology(Session ssn) {
        this.ssn = ssn;
        this.nodeCount = ssn.nodes().size();
        for (SessionNode n : ssn.nodes()) {
            for (ForeignPod f : n.info().foreignPods()) {
                Placed p = new Placed(f.namespace(), nsLabels(f.namespace()), f.spec(), n.index());
                foreign.add(p);
                place(p, 1);
            }
            for (SessionTask t : n.tasks()) {
                if (counts(t.status())) allocated(t);
            }
        }
    }

    /** Whether a task in this status takes part in the inter-pod rules on its node. */
    static boolean counts(TaskStatus s) {
        return (s.occupiesNode() && s != TaskStatus.Releasing) || s == TaskStatus.Pipelined;
    }

    /** A namespace's labels (memoised: pods of one namespace share them). */
    public Map<String, String> namespaceLabels(String namespace) {
        return nsLabelCache.computeIfAbsent(namespace, ssn::namespaceLabels);
    }

    private Map<String, String> nsLabels(String namespace) {
        return namespaceLabels(namespace);
    }

    @Override
    public void allocated(SessionTask t) {
        if (placedTasks.containsKey(t) || t.node() == null) return;
        Placed p = new Placed(
                t.job().info().namespace(),
                nsLabels(t.job().info().namespace()),
                t.info().spec(),
                t.node().index());
        placedTasks.put(t, p);
        place(p, 1);
    }

    @Override
    public void deallocated(SessionTask t) {
        Placed p = placedTasks.remove(t);
        if (p != null) place(p, -1);
    }

    private void place(Placed p, int delta) {
        Map<String, String> labels = p.spec.labels();
        for (Map.Entry<String, String> l : labels.entrySet()) {
            Set<Placed> set = byLabel.computeIfAbsent(l.getKey(), k -> new HashMap<>())
                    .computeIfAbsent(l.getValue(), v -> new LinkedHashSet<>());
            if (delta > 0) set.add(p);
            else set.remove(p);
            List<Counter> anchored = countersByAnchor.get(anchor(l.getKey(), l.getValue()));
            if (anchored != null) {
                for (Counter c : anchored) if (c.matches(p)) c.add(p.node, delta);
            }
        }
        for (Counter c : unanchoredCounters) if (c.matches(p)) c.add(p.node, delta);
        if (!p.spec.requiredAntiAffinity().isEmpty()
                || !p.spec.preferredAffinity().isEmpty()
                || !p.spec.preferredAntiAffinity().isEmpty()) {
            for (PodAffinityTerm t : p.spec.requiredAntiAffinity())
                carry(Kind.REQUIRED_ANTI, t.resolvedFor(p.namespace), 0, p.node, delta);
            for (WeightedPodAffinityTerm t : p.spec.preferredAffinity())
                carry(Kind.PREFERRED, t.term().resolvedFor(p.namespace), t.weight(), p.node, delta);
            for (WeightedPodAffinityTerm t : p.spec.preferredAntiAffinity())
                carry(Kind.PREFERRED, t.term().resolvedFor(p.namespace), -t.weight(), p.node, delta);
        }
        if (!p.spec.hostPorts().isEmpty()) {
            List<HostPort> used = ports.computeIfAbsent(p.node, n -> new ArrayList<>());
            for (HostPort hp : p.spec.hostPorts()) {
                if (delta > 0) used.add(hp);
                else used.remove(hp);
            }
        }
    }

    private void carry(Kind kind, PodAffinityTerm term, int weight, int node, int delta) {
        CarriedKey key = new CarriedKey(kind, term, weight);
        Carried c = carried.get(key);
        if (c == null) {
            c = new Carried(term, domains(term.topologyKey()));
            carried.put(key, c);
            List<String> anchors = anchors(term.labelSelector());
            if (anchors == null) unanchoredCarried.add(key);
            else
                for (String a : anchors)
                    carriedByAnchor.computeIfAbsent(a, x -> new ArrayList<>()).add(key);
            carriedGeneration++;
        }
        int d = c.domains.of(node);
        if (d >= 0) c.count[d] += delta;
    }

    /** The domains of a node label over the session's nodes. */
    public Domains domains(String key) {
        return domains.computeIfAbsent(key, k -> {
            int[] of = new int[nodeCount];
            Map<String, Integer> index = new HashMap<>();
            List<String> values = new ArrayList<>();
            for (SessionNode n : ssn.nodes()) {
                String v = n.info().labels().get(k);
                if (v == null) {
                    of[n.index()] = -1;
                    continue;
                }
                of[n.index()] = index.computeIfAbsent(v, x -> {
                    values.add(x);
                    return values.size() - 1;
                });
            }
            return new Domains(k, of, List.copyOf(values));
        });
    }

    /** The counter of pods matching all of {@code terms} (resolved), on the {@code eligible} nodes (null: all). */
    public Counter counter(List<PodAffinityTerm> terms, BitSet eligible) {
        CounterKey key = new CounterKey(List.copyOf(terms), eligible);
        Counter c = counters.get(key);
        if (c == null) {
            c = new Counter(key.terms(), eligible);
            counters.put(key, c);
            List<String> anchors = anchors(terms.get(0).labelSelector());
            if (anchors == null) unanchoredCounters.add(c);
            else
                for (String a : anchors)
                    countersByAnchor.computeIfAbsent(a, x -> new ArrayList<>()).add(c);
        }
        return c;
    }

    /** The required anti-affinity terms of placed pods that a pod of this namespace and labels matches. */
    @SuppressWarnings("unchecked")
    public List<Carried> repelling(String namespace, Map<String, String> labels) {
        return (List<Carried>) matching(new Asker(namespace, labels, Kind.REQUIRED_ANTI));
    }

    /** The preferred terms of placed pods that a pod of this namespace and labels matches, with their signed weights. */
    @SuppressWarnings("unchecked")
    public List<Weighted> preferring(String namespace, Map<String, String> labels) {
        return (List<Weighted>) matching(new Asker(namespace, labels, Kind.PREFERRED));
    }

    private Object matching(Asker a) {
        Integer gen = matchingGeneration.get(a);
        if (gen != null && gen == carriedGeneration) return matchingCarried.get(a);
        Map<String, String> nsl = nsLabels(a.namespace());
        Set<CarriedKey> candidates = new LinkedHashSet<>(unanchoredCarried);
        for (Map.Entry<String, String> l : a.labels().entrySet()) {
            List<CarriedKey> at = carriedByAnchor.get(anchor(l.getKey(), l.getValue()));
            if (at != null) candidates.addAll(at);
        }
        List<Object> out = new ArrayList<>();
        for (CarriedKey k : candidates) {
            if (k.kind() != a.kind() || !k.term().matches(a.namespace(), nsl, a.labels())) continue;
            out.add(a.kind() == Kind.REQUIRED_ANTI ? carried.get(k) : new Weighted(carried.get(k), k.weight()));
        }
        List<Object> result = List.copyOf(out);
        matchingCarried.put(a, result);
        matchingGeneration.put(a, carriedGeneration);
        return result;
    }

    /** Whether any placed pod carries a preferred inter-pod term (Kubernetes scores them for every pod). */
    public boolean hasPreferredCarried() {
        for (CarriedKey k : carried.keySet()) if (k.kind() == Kind.PREFERRED) return true;
        return false;
    }

    /** Host ports in use on a node. */
    public List<HostPort> ports(int node) {
        List<HostPort> p = ports.get(node);
        return p == null ? List.of() : p;
    }

    /** Placed pods that might match a selector: those with its anchor label, or all of them. */
    private Iterable<Placed> candidates(LabelSelector s) {
        List<String> anchors = anchors(s);
        if (anchors == null) {
            List<Placed> all = new ArrayList<>(placedTasks.values());
            all.addAll(foreign);
            return all;
        }
        List<Placed> out = new ArrayList<>();
        Set<Placed> seen = new HashSet<>();
        for (String a : anchors) {
            int sep = a.indexOf('\0');
            Map<String, Set<Placed>> byValue = byLabel.get(a.substring(0, sep));
            Set<Placed> set = byValue == null ? null : byValue.get(a.substring(sep + 1));
            if (set != null) for (Placed p : set) if (seen.add(p)) out.add(p);
        }
        return out;
    }

    /**
     * The labels one of which every pod a selector matches must carry: a {@code matchLabels} entry,
     * else the values of an {@code In} expression; null when the selector names none (then every
     * pod is a candidate). A selector that matches nothing has no candidates at all.
     */
    static List<String> anchors(LabelSelector s) {
        if (s.nothing()) return List.of();
        if (!s.matchLabels().isEmpty()) {
            Map.Entry<String, String> e = s.matchLabels().entrySet().iterator().next();
            return List.of(anchor(e.getKey(), e.getValue()));
        }
        for (LabelSelector.Requirement r : s.matchExpressions()) {
            if (r.operator() == LabelSelector.Operator.In) {
                List<String> out = new ArrayList<>();
                for (String v : r.values()) out.add(anchor(r.key(), v));
                return out;
            }
        }
        return null;
    }

    private static String anchor(String key, String value) {
        return key + '\0' + value;
    }

    @Override
    public String toString() {
        return "PodTopology{" + placedTasks.size() + " tasks, " + foreign.size() + " foreign, " + counters.size()
                + " counters, " + carried.size() + " carried terms}";
    }
}
