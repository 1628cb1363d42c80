package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Taint;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.SessionNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' TaintToleration: the filter refuses a node with a NoSchedule or NoExecute taint the
 * pod does not tolerate; the score counts the PreferNoSchedule taints it does not tolerate (only
 * tolerations whose effect is PreferNoSchedule or empty count), normalized in reverse over the
 * candidates: none untolerated scores 100, the most untolerated 0.
 */
final class TaintToleration {

    private final List<SessionNode> nodes;
    /** Per set of tolerations: whether any node has a PreferNoSchedule taint it does not tolerate. */
    private final Map<List<Toleration>, Boolean> anyIntolerable = new HashMap<>();

    TaintToleration(List<SessionNode> nodes) {
        this.nodes = nodes;
    }

    /**
     * The first of the node's taints the tolerations do not tolerate: NoSchedule and NoExecute ones,
     * or with {@code preferNoSchedule} only PreferNoSchedule ones; null when none.
     */
    static Taint untolerated(List<Toleration> tolerations, NodeInfo n, boolean preferNoSchedule) {
        for (Taint taint : n.taints()) {
            if ((taint.effect() == TaintEffect.PreferNoSchedule) == preferNoSchedule
                    && !tolerated(tolerations, taint)) {
                return taint;
            }
        }
        return null;
    }

    static boolean tolerated(List<Toleration> tolerations, Taint taint) {
        for (Toleration tol : tolerations) {
            if (tol.tolerates(taint)) return true;
        }
        return false;
    }

    /** Null when no node has a PreferNoSchedule taint these tolerations leave untolerated (every node scores 100). */
    BatchScorer scorer(List<Toleration> tolerations, int weight) {
        List<Toleration> prefer = new ArrayList<>();
        for (Toleration t : tolerations) {
            if (t.effect() == null || t.effect() == TaintEffect.PreferNoSchedule) prefer.add(t);
        }
        boolean any = anyIntolerable.computeIfAbsent(prefer, p -> {
            for (SessionNode n : nodes) if (intolerable(p, n.info()) > 0) return true;
            return false;
        });
        if (!any) return null;
        return (candidates, scores) -> {
            long[] raw = new long[candidates.size()];
            for (int i = 0; i < raw.length; i++)
                raw[i] = intolerable(prefer, candidates.get(i).info());
            long[] normalized = NodeOrder.defaultNormalize(raw, true);
            for (int i = 0; i < raw.length; i++) scores[i] += weight * (double) normalized[i];
        };
    }

    private static int intolerable(List<Toleration> prefer, NodeInfo n) {
        int count = 0;
        for (Taint taint : n.taints()) {
            if (taint.effect() == TaintEffect.PreferNoSchedule && !tolerated(prefer, taint)) count++;
        }
        return count;
    }
}
