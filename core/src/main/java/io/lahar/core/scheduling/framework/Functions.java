package io.lahar.core.scheduling.framework;

import java.util.List;

/** The shapes of the functions plugins register with a session (Volcano's api.*Fn types). */
public final class Functions {
    private Functions() {}

    /** Whether a task may go on a node, ignoring free resources; null when it may, else the reason. */
    @FunctionalInterface
    public interface PredicateFn {
        String check(SessionTask task, SessionNode node);
    }

    /**
     * Volcano's PrePredicate for the rules that depend on where other pods are (inter-pod
     * affinity, topology spread, host ports): prepares, for one placement attempt of a task, the
     * check of a node; null when none of the plugin's rules concern the task.
     */
    @FunctionalInterface
    public interface PrePredicateFn {
        NodeCheck prepare(SessionTask task);
    }

    /**
     * A prepared check of one node for one task: null when the task may go there, else the
     * reasons it may not, several joined by {@link FitErrors#joinReasons}.
     */
    @FunctionalInterface
    public interface NodeCheck {
        String check(SessionNode node);

        /**
         * The domains this check refuses now for a reason more pods elsewhere could lift (a spread's
         * skew, an affinity no pod meets yet), as Volcano's predicate error cache must keep them
         * refused for the role's later tasks; empty when every refusal can only grow as pods come;
         * null when a rule's domains are too many to list (one per node), so the caller must keep
         * the refusals per node.
         */
        default List<Refused> liftable() {
            return List.of();
        }
    }

    /** Nodes a rule refuses: those in the marked domains of one node label, with the rule's reason. */
    public record Refused(PodTopology.Domains domains, java.util.BitSet refused, String reason) {
        /** The most domains a refusal lists; beyond, {@link NodeCheck#liftable} answers null. */
        public static final int MAX_DOMAINS = 1024;

        public boolean refuses(int node) {
            int d = domains.of(node);
            return d >= 0 && refused.get(d);
        }
    }

    /**
     * Volcano's BatchNodeOrderFn for the scores Kubernetes normalizes over the candidate nodes
     * (node affinity, taint toleration, inter-pod affinity, topology spread): prepares, for one
     * placement attempt, the scorer of the task; null when the scores would be the same on every
     * node (Kubernetes' Skip, or nothing that tells nodes apart), so they cannot change the choice.
     */
    @FunctionalInterface
    public interface BatchNodeOrderFn {
        BatchScorer prepare(SessionTask task);
    }

    /** Adds its weighted, normalized score of each candidate node to {@code scores} (same order). */
    @FunctionalInterface
    public interface BatchScorer {
        void score(List<SessionNode> candidates, double[] scores);
    }

    /** How much a plugin likes a node for a task; the session sums the scores. */
    @FunctionalInterface
    public interface NodeOrderFn {
        double score(SessionTask task, SessionNode node);
    }

    /** The candidates a plugin allows the preemptor (or reclaimer) to evict. */
    @FunctionalInterface
    public interface VictimFn {
        List<SessionTask> select(SessionTask preemptor, List<SessionTask> candidates);
    }

    /**
     * Volcano's VictimTasksFn, for the shuffle action: of the running tasks it is given, or of any the
     * plugin finds itself, the ones the plugin wants evicted now.
     */
    @FunctionalInterface
    public interface VictimTasksFn {
        List<SessionTask> victims(List<SessionTask> tasks);
    }

    /** Null when the queue may take more, else why not. */
    @FunctionalInterface
    public interface OverusedFn {
        String overused(SessionQueue queue);
    }

    /** Null when the queue may take this task, else why not. */
    @FunctionalInterface
    public interface AllocatableFn {
        String allocatable(SessionQueue queue, SessionTask task);
    }

    /** Null when the job is valid, else why not. */
    @FunctionalInterface
    public interface JobValidFn {
        String validate(SessionJob job);
    }

    @FunctionalInterface
    public interface JobPredicate {
        boolean test(SessionJob job);
    }

    /** A vote on moving a job from Pending to Inqueue. */
    @FunctionalInterface
    public interface JobEnqueueableFn {
        Vote vote(SessionJob job);
    }

    /** A vote on a job being pipelined (its allocations kept though its gang is not ready). */
    @FunctionalInterface
    public interface JobPipelinedFn {
        Vote vote(SessionJob job);
    }

    /** Called when a job has been enqueued, so gates can count what it reserves. */
    @FunctionalInterface
    public interface JobEnqueuedFn {
        void enqueued(SessionJob job);
    }

    /** Permit, abstain or reject (with a reason), as Volcano's util.Permit / Abstain / Reject. */
    public record Vote(int value, String reason) {
        public static final Vote PERMIT = new Vote(1, null);
        public static final Vote ABSTAIN = new Vote(0, null);

        public static Vote reject(String reason) {
            return new Vote(-1, reason);
        }
    }

    /** Reacts to tasks taking (allocate, pipeline) or giving back (evict, undo) resources. */
    public interface EventHandler {
        void allocated(SessionTask task);

        void deallocated(SessionTask task);
    }
}
