package io.lahar.core.scheduling.actions;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.CandidateIndex;
import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Choosing a node for a task: predicates (the node's pod number among them, as Volcano's predicates
 * plugin counts it), the resource fit, then the best score (ties to the first name).
 */
final class Placement {
    private Placement() {}

    /** Where a task goes: onto idle resources, or pipelined onto resources being released. */
    record Choice(SessionNode node, boolean pipelined) {}

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
        return find(ssn, task, errors, allowPipeline, indexed, ssn.prePredicate(task));
    }

    /** As above, with the task's inter-pod predicates already prepared ({@code check}, null when none). */
    static Choice find(
            Session ssn, SessionTask task, FitErrors errors, boolean allowPipeline, boolean indexed, NodeCheck check) {
        BatchScorer batch = ssn.batchScorer(task);
        if (indexed && batch == null) {
            CandidateIndex.Answer a = ssn.candidateIndex().best(task, check);
            if (a.node() != null) {
                return new Choice(a.node(), false);
            }
        }
        return scan(ssn, task, errors, allowPipeline, check, batch, null);
    }

    /**
     * A scan of every node that skips, with their earlier reason, the nodes {@code cache} says an
     * earlier task of the role failed on, and records there the nodes this task fails on — failing
     * as Volcano's allocate predicate does: the predicates, or resources even once releasing pods are gone.
     */
    static Choice find(
            Session ssn,
            SessionTask task,
            FitErrors errors,
            boolean allowPipeline,
            NodeCheck check,
            PredicateErrorCache cache) {
        return scan(ssn, task, errors, allowPipeline, check, ssn.batchScorer(task), cache);
    }

    private static Choice scan(
            Session ssn,
            SessionTask task,
            FitErrors errors,
            boolean allowPipeline,
            NodeCheck check,
            BatchScorer batch,
            PredicateErrorCache cache) {
        Resource req = task.request();
        boolean score = ssn.hasNodeOrderFns();
        int nodes = ssn.nodes().size();
        List<SessionNode> now = new ArrayList<>();
        List<SessionNode> future = new ArrayList<>();
        for (SessionNode n : ssn.nodes()) {
            String before = cache == null ? null : cache.failedBefore(n);
            if (before != null) {
                errors.nodeFailed(before);
                continue;
            }
            String reason = ssn.predicate(task, n);
            if (reason == null && n.podsFull()) reason = SessionNode.POD_NUMBER_EXCEEDED;
            if (reason != null) {
                errors.nodeFailed(reason);
                if (cache != null) cache.failed(n, reason, nodes);
                continue;
            }
            boolean fitsNow = req.lessEqual(n.idle());
            boolean fitsFuture = fitsNow || req.lessEqual(n.futureIdle());
            boolean fitsLater = !fitsNow && allowPipeline && fitsFuture;
            if ((fitsNow || fitsLater) && check != null) {
                reason = check.check(n);
                if (reason != null) {
                    errors.nodeFailed(reason);
                    if (cache != null) cache.failed(n, reason, nodes);
                    continue;
                }
            }
            if (fitsNow) {
                if (!score && cache == null) return new Choice(n, false);
                now.add(n);
            } else {
                List<String> lacking = req.exceeding(n.idle());
                errors.insufficient(task, n, lacking, n.idle());
                if (cache != null && !fitsFuture)
                    cache.failed(
                            n,
                            FitErrors.insufficientReason(
                                    req.exceeding(n.futureIdle()).get(0)),
                            nodes);
                if (fitsLater) future.add(n);
            }
        }
        // As Volcano's prioritizeNodes: the nodes that fit now first; only without one, those that will.
        if (!now.isEmpty()) return new Choice(score ? best(ssn, task, now, batch) : now.get(0), false);
        if (future.isEmpty()) return null;
        return new Choice(score ? best(ssn, task, future, batch) : future.get(0), true);
    }

    /** The candidate with the highest score, ties to the first (by name); batch scores normalized over these candidates. */
    private static SessionNode best(Session ssn, SessionTask task, List<SessionNode> candidates, BatchScorer batch) {
        double[] scores = scores(ssn, task, candidates, batch);
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (scores[i] > scores[best]) best = i;
        }
        return candidates.get(best);
    }

    private static double[] scores(Session ssn, SessionTask task, List<SessionNode> candidates, BatchScorer batch) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) scores[i] = ssn.nodeScore(task, candidates.get(i));
        if (batch != null) batch.score(candidates, scores);
        return scores;
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
        if (!ssn.hasNodeOrderFns() || out.isEmpty()) {
            return out;
        }
        double[] byCandidate = scores(ssn, task, out, ssn.batchScorer(task));
        double[] s = new double[ssn.nodes().size()];
        for (int i = 0; i < out.size(); i++) {
            s[out.get(i).index()] = byCandidate[i];
        }
        out.sort((a, b) -> {
            int c = Double.compare(s[b.index()], s[a.index()]);
            return c != 0 ? c : Integer.compare(a.index(), b.index());
        });
        return out;
    }
}
