package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import io.lahar.core.scheduling.api.TopologySpreadConstraint.Policy;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.Functions.Refused;
import io.lahar.core.scheduling.framework.PodTopology;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kubernetes' PodTopologySpread, the filter (DoNotSchedule constraints) and the score
 * (ScheduleAnyway), as Volcano's predicates and nodeorder plugins run it: the pods of the
 * task's namespace matching a constraint's selector are counted per domain of its topology key,
 * over the nodes the constraint includes — those carrying every key of the pod's constraints of
 * that kind, that match the pod's node selector and required node affinity
 * ({@code nodeAffinityPolicy: Honor}, the default) and, with {@code nodeTaintsPolicy: Honor}, whose
 * NoSchedule and NoExecute taints the pod tolerates. A node passes a constraint when
 * {@code count in its domain + (1 if the pod matches the selector) - the least count of any domain
 * <= maxSkew}, the least count being 0 while fewer domains than {@code minDomains} exist.
 *
 * <p>The score (nodeorder's {@code podtopologyspread.weight}, ScheduleAnyway constraints): per
 * constraint, the matching pods in the node's domain (on the node itself for
 * {@code kubernetes.io/hostname}) times log(domains among the candidates + 2), plus maxSkew - 1,
 * summed and rounded; normalized over the candidates so the fewest pods score 100, and a candidate
 * lacking one of the keys 0.
 */
final class PodTopologySpread {
    static final String CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
    static final String LABEL_NOT_MATCH =
            "node(s) didn't match pod topology spread constraints (missing required label)";

    /** The nodes a constraint counts, by what decides it; one mask per distinct shape, kept for the session. */
    private record Inclusion(
            Set<String> keys, Map<String, String> nodeSelector, Object nodeAffinity, Object tolerations) {}

    private final Session ssn;
    private final Map<Inclusion, BitSet> masks = new HashMap<>();

    PodTopologySpread(Session ssn) {
        this.ssn = ssn;
    }

    /** A constraint as prepared for one task: its counter (null when its selector is empty: nothing counts). */
    record Prepared(TopologySpreadConstraint constraint, PodTopology.Counter counter, int self) {}

    /** The prepared filter of one task. */
    static final class Filter {
        private final List<Prepared> constraints;
        private final PodTopology.Domains[] keys;

        private Filter(List<Prepared> constraints, PodTopology.Domains[] keys) {
            this.constraints = constraints;
            this.keys = keys;
        }

        /** The domains each constraint's skew refuses now; pods in the other domains would lift it. */
        List<Refused> liftable() {
            List<Refused> out = new ArrayList<>();
            for (int i = 0; i < constraints.size(); i++) {
                Prepared p = constraints.get(i);
                if (p.counter() == null) continue;
                PodTopology.Domains d = keys[i];
                if (d.size() > Refused.MAX_DOMAINS) return null;
                int min = p.counter().min(p.constraint().minDomains());
                BitSet over = new BitSet(d.size());
                for (int v = 0; v < d.size(); v++) {
                    if (p.counter().inDomain(0, v) + p.self() - min
                            > p.constraint().maxSkew()) over.set(v);
                }
                out.add(new Refused(d, over, CONSTRAINTS_NOT_MATCH));
            }
            return out;
        }

        String check(SessionNode node) {
            int n = node.index();
            for (int i = 0; i < constraints.size(); i++) {
                if (keys[i].of(n) < 0) return LABEL_NOT_MATCH;
                Prepared p = constraints.get(i);
                if (p.counter() == null) continue;
                int skew = p.counter().at(0, n)
                        + p.self()
                        - p.counter().min(p.constraint().minDomains());
                if (skew > p.constraint().maxSkew()) return CONSTRAINTS_NOT_MATCH;
            }
            return null;
        }
    }

    /** Null when the task has no DoNotSchedule constraint (Kubernetes' Skip). */
    Filter preFilter(SessionTask task) {
        List<Prepared> hard = prepare(task, true);
        if (hard.isEmpty()) return null;
        PodTopology topo = ssn.podTopology();
        PodTopology.Domains[] keys = new PodTopology.Domains[hard.size()];
        for (int i = 0; i < hard.size(); i++)
            keys[i] = topo.domains(hard.get(i).constraint().topologyKey());
        return new Filter(hard, keys);
    }

    /** The score of one task; null when it has no ScheduleAnyway constraint (Kubernetes' Skip). */
    BatchScorer scorer(SessionTask task, int weight) {
        List<Prepared> soft = prepare(task, false);
        if (soft.isEmpty()) return null;
        PodTopology topo = ssn.podTopology();
        PodTopology.Domains[] keys = new PodTopology.Domains[soft.size()];
        for (int c = 0; c < soft.size(); c++)
            keys[c] = topo.domains(soft.get(c).constraint().topologyKey());
        return (candidates, scores) -> {
            int m = candidates.size();
            boolean[] ignored = new boolean[m];
            int kept = 0;
            for (int i = 0; i < m; i++) {
                int n = candidates.get(i).index();
                for (PodTopology.Domains d : keys) ignored[i] |= d.of(n) < 0;
                if (!ignored[i]) kept++;
            }
            double[] tpWeight = new double[soft.size()];
            for (int c = 0; c < soft.size(); c++) {
                int size = kept;
                if (!NodeInfo.HOSTNAME.equals(keys[c].key())) {
                    Set<Integer> values = new java.util.HashSet<>();
                    for (int i = 0; i < m; i++)
                        if (!ignored[i]) values.add(keys[c].of(candidates.get(i).index()));
                    size = values.size();
                }
                tpWeight[c] = Math.log(size + 2);
            }
            long[] raw = new long[m];
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < m; i++) {
                if (ignored[i]) continue;
                int n = candidates.get(i).index();
                double s = 0;
                for (int c = 0; c < soft.size(); c++) {
                    Prepared p = soft.get(c);
                    int count =
                            p.counter() == null ? 0 : Math.max(0, p.counter().at(0, n));
                    s += count * tpWeight[c] + (p.constraint().maxSkew() - 1);
                }
                raw[i] = Math.round(s);
                min = Math.min(min, raw[i]);
                max = Math.max(max, raw[i]);
            }
            for (int i = 0; i < m; i++) {
                long normalized = ignored[i]
                        ? 0
                        : max == 0 ? NodeOrder.MAX_NODE_SCORE : NodeOrder.MAX_NODE_SCORE * (max + min - raw[i]) / max;
                scores[i] += weight * (double) normalized;
            }
        };
    }

    /** The task's constraints of one kind, each with its counter. */
    List<Prepared> prepare(SessionTask task, boolean hard) {
        TaskInfo info = task.info();
        List<TopologySpreadConstraint> of = new ArrayList<>();
        Set<String> keys = new TreeSet<>();
        for (TopologySpreadConstraint c : info.spec().topologySpread()) {
            if (c.hard() != hard) continue;
            of.add(c);
            keys.add(c.topologyKey());
        }
        if (of.isEmpty()) return List.of();
        String ns = task.job().info().namespace();
        PodTopology topo = ssn.podTopology();
        List<Prepared> out = new ArrayList<>(of.size());
        for (TopologySpreadConstraint c : of) {
            LabelSelector sel = c.labelSelector();
            int self = sel.matches(info.spec().labels()) ? 1 : 0;
            // Kubernetes counts nothing for an empty selector (countPodsMatchSelector), so it never fails.
            // Scoring counts on the node itself for the hostname key, whatever the inclusion policies.
            BitSet nodes = !hard && NodeInfo.HOSTNAME.equals(c.topologyKey()) ? null : included(task, c, keys);
            PodTopology.Counter counter = sel.isEmpty() || sel.nothing()
                    ? null
                    : topo.counter(List.of(new PodAffinityTerm(sel, Set.of(ns), null, c.topologyKey())), nodes);
            out.add(new Prepared(c, counter, self));
        }
        return out;
    }

    private BitSet included(SessionTask task, TopologySpreadConstraint c, Set<String> keys) {
        TaskInfo t = task.info();
        boolean affinity = c.nodeAffinityPolicy() == Policy.Honor;
        boolean taints = c.nodeTaintsPolicy() == Policy.Honor;
        Inclusion shape = new Inclusion(
                keys,
                affinity ? t.nodeSelector() : null,
                affinity ? t.affinity() : null,
                taints ? t.tolerations() : null);
        return masks.computeIfAbsent(shape, s -> {
            BitSet bits = new BitSet(ssn.nodes().size());
            for (SessionNode n : ssn.nodes()) {
                Map<String, String> labels = n.info().labels();
                if (!labels.keySet().containsAll(keys)) continue;
                if (affinity && !Predicates.matchesNodeAffinity(t, n.info())) continue;
                if (taints && TaintToleration.untolerated(t.tolerations(), n.info(), false) != null) continue;
                bits.set(n.index());
            }
            return bits;
        });
    }
}
