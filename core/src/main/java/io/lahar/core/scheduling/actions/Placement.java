package io.lahar.core.scheduling.actions;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.CandidateIndex;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;

/** Choosing a node for a task: predicates, the resource fit, then the best score (ties to the first name). */
final class Placement {
    private Placement() {
    }

    /** Where a task goes: onto idle resources, or pipelined onto resources being released. */
    record Choice(SessionNode node, boolean pipelined) {
    }

    /**
     * The best node whose idle resources fit the task; failing that (when allowed), the best node whose
     * future idle resources (after releases) fit it. Null when none, with every node's failure in
     * {@code errors}.
     */
    static Choice find(Session ssn, SessionTask task, FitErrors errors, boolean allowPipeline) {
        return find(ssn, task, errors, allowPipeline, false);
    }

    /**
     * As {@link #find(Session, SessionTask, FitErrors, boolean)}; with {@code indexed}, the session's
     * candidate index answers the common case (some node fits now) without a scan, and only a task
     * that fits nowhere pays for the scan that explains why.
     */
    static Choice find(Session ssn, SessionTask task, FitErrors errors, boolean allowPipeline, boolean indexed) {
        NodeCheck check = ssn.prePredicate(task);
        if (indexed) {
            CandidateIndex.Answer a = ssn.candidateIndex().best(task, check);
            if (a.node() != null) {
                return new Choice(a.node(), false);
            }
        }
        Resource req = task.request();
        boolean score = ssn.hasNodeOrderFns();
        SessionNode best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        SessionNode bestFuture = null;
        double bestFutureScore = Double.NEGATIVE_INFINITY;
        for (SessionNode n : ssn.nodes()) {
            String reason = ssn.predicate(task, n);
            if (reason != null) {
                errors.nodeFailed(reason);
                continue;
            }
            boolean fitsNow = req.lessEqual(n.idle());
            if ((fitsNow || (allowPipeline && best == null && req.lessEqual(n.futureIdle()))) && check != null) {
                reason = check.check(n);
                if (reason != null) {
                    errors.nodeFailed(reason);
                    continue;
                }
            }
            if (fitsNow) {
                if (!score) {
                    return new Choice(n, false);
                }
                double s = ssn.nodeScore(task, n);
                if (best == null || s > bestScore) {
                    best = n;
                    bestScore = s;
                }
            } else {
                errors.insufficient(task, n, req.exceeding(n.idle()), n.idle());
                if (allowPipeline && best == null && req.lessEqual(n.futureIdle())) {
                    double s = score ? ssn.nodeScore(task, n) : 0;
                    if (bestFuture == null || s > bestFutureScore) {
                        bestFuture = n;
                        bestFutureScore = s;
                    }
                }
            }
        }
        if (best != null) {
            return new Choice(best, false);
        }
        return bestFuture == null ? null : new Choice(bestFuture, true);
    }

    /**
     * Nodes passing the (non-resource) predicates, best score first, ties by name. The inter-pod
     * predicates are checked as the pods stand: a victim's leaving is not simulated, as in
     * Volcano's preempt without topology-aware preemption.
     */
    static List<SessionNode> candidates(Session ssn, SessionTask task) {
        List<SessionNode> out = new ArrayList<>();
        NodeCheck check = ssn.prePredicate(task);
        for (SessionNode n : ssn.nodes()) {
            if (ssn.predicate(task, n) == null && (check == null || check.check(n) == null)) {
                out.add(n);
            }
        }
        if (!ssn.hasNodeOrderFns()) {
            return out;
        }
        double[] s = new double[ssn.nodes().size()];
        for (SessionNode n : out) {
            s[n.index()] = ssn.nodeScore(task, n);
        }
        out.sort((a, b) -> {
            int c = Double.compare(s[b.index()], s[a.index()]);
            return c != 0 ? c : Integer.compare(a.index(), b.index());
        });
        return out;
    }
}
