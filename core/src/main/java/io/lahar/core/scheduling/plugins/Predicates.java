package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.HostPort;
import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Taint;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Functions.Refused;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.PodTopology;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's predicates plugin: Kubernetes' filters NodeUnschedulable, NodeAffinity (nodeSelector
 * and required node affinity), TaintToleration, NodePorts, InterPodAffinity and PodTopologySpread,
 * each switched by Volcano's argument ({@code predicate.NodeAffinityEnable},
 * {@code predicate.NodePortsEnable}, {@code predicate.TaintTolerationEnable},
 * {@code predicate.PodAffinityEnable}, {@code predicate.PodTopologySpreadEnable}; all on by default).
 * Free cpu, memory, pods and extended resources are checked by the actions against each node's
 * idle resources, as Volcano does, so the reason can say how much is missing.
 *
 * <p>The first three depend only on the task's placement constraints and the node's labels and
 * taints, which a session never changes, so their results are cached per class (selector, affinity,
 * tolerations) — Volcano's stable filters, which {@code predicate.CacheEnable} caches; here they
 * always are, the answer being the same. The last three depend on where other pods are and are
 * registered as a pre-predicate over the session's {@link PodTopology}; a node failing several of
 * them counts under each reason, as Volcano's fit errors do, and a failed required affinity (which
 * no other pod's leaving can mend) stops the checks there. Volcano's volume and dynamic-resource
 * predicates are not available (a snapshot has no volumes or claims): their switches are accepted
 * only as {@code false}.
 */
public final class Predicates implements Plugin {
    public static final String NAME = "predicates";
    public static final String UNSCHEDULABLE = "node(s) were unschedulable";
    public static final String SELECTOR = "node(s) didn't match node selector";
    public static final String AFFINITY = "node(s) didn't match required node affinity";
    static final Taint UNSCHEDULABLE_TAINT = new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule);
    private static final List<String> UNSUPPORTED = List.of(
            "predicate.NodeVolumeLimitsEnable",
            "predicate.VolumeZoneEnable",
            "predicate.VolumeBindingEnable",
            "predicate.DynamicResourceAllocationEnable");

    private record PredicateClass(Map<String, String> selector, NodeAffinity affinity, List<Toleration> tolerations) {}

    private final Map<PredicateClass, String[]> cache = new HashMap<>();
    private static final String PASS = "";
    private final boolean nodeAffinity;
    private final boolean nodePorts;
    private final boolean taintToleration;
    private final boolean podAffinity;
    private final boolean podTopologySpread;

    public Predicates(Arguments args) {
        nodeAffinity = args.getBool("predicate.NodeAffinityEnable", true);
        nodePorts = args.getBool("predicate.NodePortsEnable", true);
        taintToleration = args.getBool("predicate.TaintTolerationEnable", true);
        podAffinity = args.getBool("predicate.PodAffinityEnable", true);
        podTopologySpread = args.getBool("predicate.PodTopologySpreadEnable", true);
        args.getBool("predicate.CacheEnable", false);
        for (String key : UNSUPPORTED) {
            if (args.getBool(key, false)) {
                throw new IllegalArgumentException(
                        "argument " + key + ": only false is supported (a snapshot has no volumes or resource claims)");
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        int nodes = ssn.nodes().size();
        ssn.addPredicateFn(NAME, (task, node) -> {
            TaskInfo t = task.info();
            String[] results = cache.computeIfAbsent(
                    new PredicateClass(t.nodeSelector(), t.affinity(), t.tolerations()), k -> new String[nodes]);
            String r = results[node.index()];
            if (r == null) {
                r = check(t, node.info());
                results[node.index()] = r == null ? PASS : r;
                return r;
            }
            return r == PASS ? null : r;
        });
        if (!ssn.hasInterPodRules() || !(nodePorts || podAffinity || podTopologySpread)) return;
        PodTopologySpread spread = new PodTopologySpread(ssn);
        ssn.addPrePredicateFn(NAME, task -> {
            List<HostPort> ports = nodePorts ? task.info().spec().hostPorts() : List.of();
            PodTopology topo = ssn.podTopology();
            InterPodAffinity.Filter affinity = podAffinity ? InterPodAffinity.preFilter(topo, task) : null;
            PodTopologySpread.Filter spreading = podTopologySpread ? spread.preFilter(task) : null;
            if (ports.isEmpty() && affinity == null && spreading == null) return null;
            return new NodeCheck() {
                @Override
                public String check(SessionNode node) {
                    List<String> reasons = null;
                    String r = ports.isEmpty() ? null : NodePorts.check(ports, topo, node);
                    if (r != null) reasons = add(null, r);
                    r = affinity == null ? null : affinity.check(node);
                    if (r != null) {
                        reasons = add(reasons, r);
                        if (r.equals(InterPodAffinity.AFFINITY_NOT_MATCH)) return FitErrors.joinReasons(reasons);
                    }
                    r = spreading == null ? null : spreading.check(node);
                    if (r != null) reasons = add(reasons, r);
                    return reasons == null ? null : FitErrors.joinReasons(reasons);
                }

                @Override
                public List<Refused> liftable() {
                    List<Refused> a = affinity == null ? List.of() : affinity.liftable();
                    List<Refused> s = spreading == null ? List.of() : spreading.liftable();
                    if (a == null || s == null) return null;
                    if (a.isEmpty()) return s;
                    List<Refused> out = new ArrayList<>(a);
                    out.addAll(s);
                    return out;
                }
            };
        });
    }

    private static List<String> add(List<String> reasons, String r) {
        List<String> out = reasons == null ? new ArrayList<>(3) : reasons;
        out.add(r);
        return out;
    }

    /** Null when the task may go on the node as far as the stable filters go, else the first reason it may not. */
    String check(TaskInfo t, NodeInfo n) {
        if (n.unschedulable() && !TaintToleration.tolerated(t.tolerations(), UNSCHEDULABLE_TAINT)) {
            return UNSCHEDULABLE;
        }
        if (nodeAffinity) {
            for (Map.Entry<String, String> e : t.nodeSelector().entrySet()) {
                if (!e.getValue().equals(n.labels().get(e.getKey()))) {
                    return SELECTOR;
                }
            }
            if (!t.affinity().matches(n.labels(), n.name())) {
                return AFFINITY;
            }
        }
        if (taintToleration) {
            Taint taint = TaintToleration.untolerated(t.tolerations(), n, false);
            if (taint != null) return "node(s) had untolerated taint " + taint;
        }
        return null;
    }

    /** Whether the node matches the task's node selector and required node affinity (Kubernetes' RequiredNodeAffinity). */
    static boolean matchesNodeAffinity(TaskInfo t, NodeInfo n) {
        for (Map.Entry<String, String> e : t.nodeSelector().entrySet()) {
            if (!e.getValue().equals(n.labels().get(e.getKey()))) return false;
        }
        return t.affinity().matches(n.labels(), n.name());
    }
}
