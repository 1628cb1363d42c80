package io.lahar.core.scheduling.actions;

import io.lahar.core.scheduling.framework.FitErrors;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Functions.Refused;
import io.lahar.core.scheduling.framework.SessionNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Volcano's predicate error cache (allocate's {@code predicateErrorCacheEnable}, on by default):
 * within one turn of a job, once a node failed the predicates for a task of a role, the role's
 * later tasks in that turn do not try the node again, with the reason it failed for then — even
 * where, for a topology spread or a pod affinity, the tasks placed since would let them pass.
 *
 * <p>Every other refusal (a node's labels or taints, its resources, host ports, anti-affinity) can
 * only persist while a turn only adds pods, so for a role whose pending tasks are alike (one
 * request, one set of constraints, labels that no selector tells apart) only the refusals more pods
 * could lift need remembering, and those are per topology domain ({@link NodeCheck#liftable}).
 * Otherwise — tasks of a role that differ, or a liftable rule with a domain per node — every
 * refused node is kept, and the role's tasks scan every node.
 */
final class PredicateErrorCache {
    private final boolean alike;
    private Boolean perNode;
    private BitSet failed;
    private String[] reasons;
    private final List<Refused> refused = new ArrayList<>();

    /** @param alike whether the role's pending tasks cannot be told apart by any predicate */
    PredicateErrorCache(boolean alike) {
        this.alike = alike;
    }

    /** Whether refusals are kept per node; decided by the role's first task this turn. */
    boolean perNode(NodeCheck check) {
        if (perNode == null) perNode = !alike || (check != null && check.liftable() == null);
        return perNode;
    }

    // ---------------------------------------------------------------- per node

    /** The reason the node failed for an earlier task of the role, or null. */
    String failedBefore(SessionNode n) {
        return failed != null && failed.get(n.index()) ? reasons[n.index()] : null;
    }

    void failed(SessionNode n, String reason, int nodes) {
        if (failed == null) {
            failed = new BitSet(nodes);
            reasons = new String[nodes];
        }
        failed.set(n.index());
        reasons[n.index()] = reason;
    }

    // ---------------------------------------------------------------- per domain

    /** The task's check, refusing as well the domains an earlier task of the role was refused for a liftable reason. */
    NodeCheck wrap(NodeCheck check) {
        if (refused.isEmpty()) return check;
        List<Refused> before = List.copyOf(refused);
        return node -> {
            List<String> reasons = null;
            for (Refused r : before) {
                if (!r.refuses(node.index())) continue;
                if (reasons == null) reasons = new ArrayList<>(2);
                if (!reasons.contains(r.reason())) reasons.add(r.reason());
            }
            if (reasons != null) return FitErrors.joinReasons(reasons);
            return check == null ? null : check.check(node);
        };
    }

    /** Remembers what the check refuses now (before the task is placed) for the role's later tasks. */
    void remember(NodeCheck check) {
        if (check == null) return;
        for (Refused r : check.liftable()) {
            if (!r.refused().isEmpty()) refused.add(r);
        }
    }
}
