package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Taint;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's predicates plugin: unschedulable nodes, nodeSelector, required node affinity, taints and
 * tolerations. (Free cpu, memory, pods and extended resources are checked by the actions against
 * each node's idle resources, as Volcano does, so the reason can say how much is missing.)
 *
 * <p>These predicates depend only on the task's placement constraints and the node's labels and
 * taints, which a session never changes, so results are cached per predicate class (selector,
 * affinity, tolerations): the thousands of identical pods of a job are checked against each node once.
 */
public final class Predicates implements Plugin {
    public static final String NAME = "predicates";
    public static final String UNSCHEDULABLE = "node(s) were unschedulable";
    public static final String SELECTOR = "node(s) didn't match node selector";
    public static final String AFFINITY = "node(s) didn't match required node affinity";
    static final Taint UNSCHEDULABLE_TAINT = new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule);

    private record PredicateClass(Map<String, String> selector, NodeAffinity affinity, List<Toleration> tolerations) {
    }

    private final Map<PredicateClass, String[]> cache = new HashMap<>();
    private static final String PASS = "";

    public Predicates(Arguments args) {
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
    }

    /** Null when the task may go on the node, else the first reason it may not. */
    public static String check(TaskInfo t, NodeInfo n) {
        if (n.unschedulable() && !tolerated(t.tolerations(), UNSCHEDULABLE_TAINT)) {
            return UNSCHEDULABLE;
        }
        for (Map.Entry<String, String> e : t.nodeSelector().entrySet()) {
            if (!e.getValue().equals(n.labels().get(e.getKey()))) {
                return SELECTOR;
            }
        }
        if (!t.affinity().matches(n.labels())) {
            return AFFINITY;
        }
        for (Taint taint : n.taints()) {
            if (taint.effect() != TaintEffect.PreferNoSchedule && !tolerated(t.tolerations(), taint)) {
                return "node(s) had untolerated taint " + taint;
            }
        }
        return null;
    }

    private static boolean tolerated(List<Toleration> tolerations, Taint taint) {
        for (Toleration tol : tolerations) {
            if (tol.tolerates(taint)) return true;
        }
        return false;
    }
}
