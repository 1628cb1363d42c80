package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.framework.Functions.AllocatableFn;
import io.lahar.core.scheduling.framework.Functions.BatchNodeOrderFn;
import io.lahar.core.scheduling.framework.Functions.BatchScorer;
import io.lahar.core.scheduling.framework.Functions.EventHandler;
import io.lahar.core.scheduling.framework.Functions.JobEnqueueableFn;
import io.lahar.core.scheduling.framework.Functions.JobEnqueuedFn;
import io.lahar.core.scheduling.framework.Functions.JobPredicate;
import io.lahar.core.scheduling.framework.Functions.JobValidFn;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.Functions.NodeOrderFn;
import io.lahar.core.scheduling.framework.Functions.OverusedFn;
import io.lahar.core.scheduling.framework.Functions.PrePredicateFn;
import io.lahar.core.scheduling.framework.Functions.PredicateFn;
import io.lahar.core.scheduling.framework.Functions.VictimFn;
import io.lahar.core.scheduling.framework.Functions.VictimTasksFn;
import io.lahar.core.scheduling.framework.Functions.Vote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The session's half that plugins see, as Volcano's framework/session_plugins.go: plugins register
 * their functions here when the session opens, and actions ask through them (orders, predicates,
 * scores, victims, queue gates, job votes), tier by tier with each plugin's switches honoured.
 *
 * <p>A base class rather than a collaborator so that plugins and actions keep calling these on the
 * {@link Session} as they do in Volcano; sealed, because the session is its only form.
 */
abstract sealed class SessionPlugins permits Session {

    private final Map<Extension, Map<String, Object>> fns = new EnumMap<>(Extension.class);
    private final Map<Extension, List<List<Object>>> tiersCache = new EnumMap<>(Extension.class);
    private final List<EventHandler> eventHandlers = new ArrayList<>();

    /** The configuration whose tiers order the functions and whose switches turn them off. */
    public abstract SchedulerConf conf();

    // ---------------------------------------------------------------- registration

    private void register(Extension e, String plugin, Object fn) {
        fns.computeIfAbsent(e, k -> new LinkedHashMap<>()).put(plugin, fn);
        tiersCache.remove(e);
    }

    public void addJobOrderFn(String plugin, Comparator<SessionJob> fn) {
        register(Extension.JOB_ORDER, plugin, fn);
    }

    public void addQueueOrderFn(String plugin, Comparator<SessionQueue> fn) {
        register(Extension.QUEUE_ORDER, plugin, fn);
    }

    public void addTaskOrderFn(String plugin, Comparator<SessionTask> fn) {
        register(Extension.TASK_ORDER, plugin, fn);
    }

    public void addPredicateFn(String plugin, PredicateFn fn) {
        register(Extension.PREDICATE, plugin, fn);
    }

    /** Under the plugin's predicate switch, beside its stateless predicate. */
    public void addPrePredicateFn(String plugin, PrePredicateFn fn) {
        fns.computeIfAbsent(Extension.PREDICATE, k -> new LinkedHashMap<>()).put(plugin + "#pre", fn);
        tiersCache.remove(Extension.PREDICATE);
    }

    public void addNodeOrderFn(String plugin, NodeOrderFn fn) {
        register(Extension.NODE_ORDER, plugin, fn);
    }

    /** Under the plugin's node-order switch, beside its per-node scores. */
    public void addBatchNodeOrderFn(String plugin, BatchNodeOrderFn fn) {
        fns.computeIfAbsent(Extension.NODE_ORDER, k -> new LinkedHashMap<>()).put(plugin + "#batch", fn);
        tiersCache.remove(Extension.NODE_ORDER);
    }

    public void addPreemptableFn(String plugin, VictimFn fn) {
        register(Extension.PREEMPTABLE, plugin, fn);
    }

    public void addReclaimableFn(String plugin, VictimFn fn) {
        register(Extension.RECLAIMABLE, plugin, fn);
    }

    /** Volcano's AddVictimTasksFns: the functions the shuffle action asks for tasks to evict. */
    public void addVictimTasksFns(String plugin, List<VictimTasksFn> victimTasksFns) {
        register(Extension.VICTIM, plugin, List.copyOf(victimTasksFns));
    }

    public void addOverusedFn(String plugin, OverusedFn fn) {
        register(Extension.OVERUSED, plugin, fn);
    }

    public void addAllocatableFn(String plugin, AllocatableFn fn) {
        register(Extension.ALLOCATABLE, plugin, fn);
    }

    /** Volcano's PreemptiveFn: whether a queue may reclaim for a task (reclaim asks it instead of allocatable). */
    public void addPreemptiveFn(String plugin, AllocatableFn fn) {
        register(Extension.PREEMPTIVE, plugin, fn);
    }

    public void addJobValidFn(String plugin, JobValidFn fn) {
        register(Extension.JOB_VALID, plugin, fn);
    }

    public void addJobReadyFn(String plugin, JobPredicate fn) {
        register(Extension.JOB_READY, plugin, fn);
    }

    public void addJobPipelinedFn(String plugin, Functions.JobPipelinedFn fn) {
        register(Extension.JOB_PIPELINED, plugin, fn);
    }

    public void addJobStarvingFn(String plugin, JobPredicate fn) {
        register(Extension.JOB_STARVING, plugin, fn);
    }

    public void addJobEnqueueableFn(String plugin, JobEnqueueableFn fn) {
        register(Extension.JOB_ENQUEUED, plugin, fn);
    }

    /** Keyed apart from the enqueueable vote so a plugin may register both under one switch. */
    public void addJobEnqueuedFn(String plugin, JobEnqueuedFn fn) {
        fns.computeIfAbsent(Extension.JOB_ENQUEUED, k -> new LinkedHashMap<>()).put(plugin + "#enqueued", fn);
        tiersCache.remove(Extension.JOB_ENQUEUED);
    }

    public void addEventHandler(EventHandler h) {
        eventHandlers.add(h);
    }

    /** The handlers told of every allocation and eviction, in registration order. */
    List<EventHandler> eventHandlers() {
        return eventHandlers;
    }

    /** The enabled functions of one kind, grouped by tier, in configuration order. */
    private List<List<Object>> tiers(Extension e) {
        List<List<Object>> cached = tiersCache.get(e);
        if (cached != null) return cached;
        Map<String, Object> registered = fns.getOrDefault(e, Map.of());
        List<List<Object>> out = new ArrayList<>();
        for (Tier tier : conf().tiers()) {
            List<Object> inTier = new ArrayList<>();
            for (PluginOption o : tier.plugins()) {
                if (!o.isEnabled(e)) continue;
                Object fn = registered.get(o.name());
                if (fn != null) inTier.add(fn);
                Object enq = registered.get(o.name() + "#enqueued");
                if (enq != null) inTier.add(enq);
                Object pre = registered.get(o.name() + "#pre");
                if (pre != null) inTier.add(pre);
                Object batch = registered.get(o.name() + "#batch");
                if (batch != null) inTier.add(batch);
            }
            out.add(inTier);
        }
        tiersCache.put(e, out);
        return out;
    }

    // ---------------------------------------------------------------- dispatch

    @SuppressWarnings("unchecked")
    private <T> int order(Extension e, T l, T r) {
        for (List<Object> tier : tiers(e)) {
            for (Object fn : tier) {
                int c = ((Comparator<T>) fn).compare(l, r);
                if (c != 0) return c;
            }
        }
        return 0;
    }

    /** Volcano's JobOrderFn: plugins first, then creation order, then key. */
    public int compareJobs(SessionJob l, SessionJob r) {
        int c = order(Extension.JOB_ORDER, l, r);
        if (c != 0) return c;
        c = Long.compare(l.info().creationIndex(), r.info().creationIndex());
        return c != 0 ? c : l.key().compareTo(r.key());
    }

    public int compareQueues(SessionQueue l, SessionQueue r) {
        int c = order(Extension.QUEUE_ORDER, l, r);
        return c != 0 ? c : l.name().compareTo(r.name());
    }

    public int compareTasks(SessionTask l, SessionTask r) {
        int c = order(Extension.TASK_ORDER, l, r);
        return c != 0 ? c : Integer.compare(l.index(), r.index());
    }

    /**
     * Null when every stateless predicate passes, else the first failing predicate's reason. These
     * look only at the task and the node's labels, taints and schedulability, never at other pods:
     * their answer holds for the whole session (see {@link #prePredicate} for the others).
     */
    public String predicate(SessionTask task, SessionNode node) {
        for (List<Object> tier : tiers(Extension.PREDICATE)) {
            for (Object fn : tier) {
                if (!(fn instanceof PredicateFn p)) continue;
                String reason = p.check(task, node);
                if (reason != null) return reason;
            }
        }
        return null;
    }

    /**
     * The check of the predicates that depend on where other pods are, prepared for one placement
     * attempt of the task (Volcano's PrePredicate); null when none concerns the task.
     */
    public NodeCheck prePredicate(SessionTask task) {
        NodeCheck only = null;
        List<NodeCheck> all = null;
        for (List<Object> tier : tiers(Extension.PREDICATE)) {
            for (Object fn : tier) {
                if (!(fn instanceof PrePredicateFn p)) continue;
                NodeCheck c = p.prepare(task);
                if (c == null) continue;
                if (only == null) {
                    only = c;
                } else {
                    if (all == null) {
                        all = new ArrayList<>();
                        all.add(only);
                    }
                    all.add(c);
                }
            }
        }
        if (all == null) return only;
        List<NodeCheck> checks = all;
        return new NodeCheck() {
            @Override
            public String check(SessionNode node) {
                List<String> reasons = null;
                for (NodeCheck c : checks) {
                    String r = c.check(node);
                    if (r == null) continue;
                    if (reasons == null) reasons = new ArrayList<>();
                    reasons.add(r);
                }
                return reasons == null ? null : FitErrors.joinReasons(reasons);
            }

            @Override
            public List<Functions.Refused> liftable() {
                List<Functions.Refused> out = new ArrayList<>();
                for (NodeCheck c : checks) {
                    List<Functions.Refused> l = c.liftable();
                    if (l == null) return null;
                    out.addAll(l);
                }
                return out;
            }
        };
    }

    /** The sum of the per-node scores (those that depend only on the node and the task, see {@link CandidateIndex}). */
    public double nodeScore(SessionTask task, SessionNode node) {
        double s = 0;
        for (List<Object> tier : tiers(Extension.NODE_ORDER)) {
            for (Object fn : tier) {
                if (fn instanceof NodeOrderFn f) s += f.score(task, node);
            }
        }
        return s;
    }

    /** Whether any node-order function is enabled (else the first node that fits is taken). */
    public boolean hasNodeOrderFns() {
        for (List<Object> tier : tiers(Extension.NODE_ORDER)) if (!tier.isEmpty()) return true;
        return false;
    }

    /**
     * The scores normalized over the candidate nodes, prepared for one placement attempt of the
     * task; null when none tells the nodes apart (then the candidate index may answer).
     */
    public BatchScorer batchScorer(SessionTask task) {
        List<BatchScorer> all = null;
        for (List<Object> tier : tiers(Extension.NODE_ORDER)) {
            for (Object fn : tier) {
                if (!(fn instanceof BatchNodeOrderFn b)) continue;
                BatchScorer s = b.prepare(task);
                if (s == null) continue;
                if (all == null) all = new ArrayList<>();
                all.add(s);
            }
        }
        if (all == null) return null;
        if (all.size() == 1) return all.get(0);
        List<BatchScorer> scorers = all;
        return (candidates, scores) -> {
            for (BatchScorer s : scorers) s.score(candidates, scores);
        };
    }

    public List<SessionTask> preemptable(SessionTask preemptor, List<SessionTask> preemptees) {
        return victims(Extension.PREEMPTABLE, preemptor, preemptees);
    }

    public List<SessionTask> reclaimable(SessionTask reclaimer, List<SessionTask> reclaimees) {
        return victims(Extension.RECLAIMABLE, reclaimer, reclaimees);
    }

    /**
     * Volcano's Preemptable and Reclaimable, to the letter: within a tier the plugins' answers
     * intersect, and a tier that ends with none (a plugin found none, or the intersection so far was
     * empty and no later plugin of the tier started it again) leaves the decision to the next tier.
     * So with the default tiers, victims the first tier refuses (gang's, cdp's, an equal priority)
     * are left to drf's shares and proportion's in the second: why Volcano's Helm chart turns off
     * gang's and drf's preemptable.
     */
    private List<SessionTask> victims(Extension e, SessionTask preemptor, List<SessionTask> candidates) {
        for (List<Object> tier : tiers(e)) {
            // null is Go's nil slice: no decision yet in this tier
            Set<SessionTask> victims = null;
            for (Object fn : tier) {
                List<SessionTask> v = ((VictimFn) fn).select(preemptor, candidates);
                if (v.isEmpty()) {
                    victims = null;
                    break;
                }
                if (victims == null) {
                    victims = new LinkedHashSet<>(v);
                } else {
                    victims.retainAll(new HashSet<>(v));
                    if (victims.isEmpty()) victims = null;
                }
            }
            if (victims != null) return new ArrayList<>(victims);
        }
        return List.of();
    }

    /**
     * Volcano's VictimTasks: every enabled victim-tasks function of a tier adds its victims (each
     * once, in the order found); the first tier that finds any decides.
     */
    @SuppressWarnings("unchecked")
    public Set<SessionTask> victimTasks(List<SessionTask> tasks) {
        Set<SessionTask> victims = new LinkedHashSet<>();
        for (List<Object> tier : tiers(Extension.VICTIM)) {
            for (Object fns : tier) {
                for (VictimTasksFn fn : (List<VictimTasksFn>) fns) victims.addAll(fn.victims(tasks));
            }
            if (!victims.isEmpty()) return victims;
        }
        return victims;
    }

    /** Null when the queue may take more, else why not (any plugin may say it is overused). */
    public String overused(SessionQueue q) {
        for (List<Object> tier : tiers(Extension.OVERUSED)) {
            for (Object fn : tier) {
                String r = ((OverusedFn) fn).overused(q);
                if (r != null) return r;
            }
        }
        return null;
    }

    public String allocatable(SessionQueue q, SessionTask t) {
        return queueRefusal(Extension.ALLOCATABLE, q, t);
    }

    /** Null when every plugin lets the queue reclaim for the task (Volcano's Preemptive), else why not. */
    public String preemptive(SessionQueue q, SessionTask t) {
        return queueRefusal(Extension.PREEMPTIVE, q, t);
    }

    private String queueRefusal(Extension e, SessionQueue q, SessionTask t) {
        for (List<Object> tier : tiers(e)) {
            for (Object fn : tier) {
                String r = ((AllocatableFn) fn).allocatable(q, t);
                if (r != null) return r;
            }
        }
        return null;
    }

    /** Whether a plugin entry turns hierarchical queues on ({@code enableHierarchy}, off unless given). */
    public boolean hierarchyEnabled(String plugin) {
        for (Tier tier : conf().tiers()) {
            for (PluginOption o : tier.plugins()) {
                if (o.name().equals(plugin)) return o.isEnabled(Extension.HIERARCHY);
            }
        }
        return false;
    }

    public String jobValid(SessionJob j) {
        for (List<Object> tier : tiers(Extension.JOB_VALID)) {
            for (Object fn : tier) {
                String r = ((JobValidFn) fn).validate(j);
                if (r != null) return r;
            }
        }
        return null;
    }

    /** Every enabled plugin must find the job ready (none registered: ready). */
    public boolean jobReady(SessionJob j) {
        return all(Extension.JOB_READY, j, true);
    }

    /**
     * Volcano's JobPipelined: any reject rejects; otherwise a tier in which some plugin permits
     * decides; with no votes, the job is pipelined.
     */
    public boolean jobPipelined(SessionJob j) {
        for (List<Object> tier : tiers(Extension.JOB_PIPELINED)) {
            boolean permitted = false;
            for (Object fn : tier) {
                Vote v = ((Functions.JobPipelinedFn) fn).vote(j);
                if (v.value() < 0) return false;
                if (v.value() > 0) permitted = true;
            }
            if (permitted) return true;
        }
        return true;
    }

    /** The first tier with starving functions decides, all of them must agree; none: not starving. */
    public boolean jobStarving(SessionJob j) {
        for (List<Object> tier : tiers(Extension.JOB_STARVING)) {
            if (tier.isEmpty()) continue;
            for (Object fn : tier) {
                if (!((JobPredicate) fn).test(j)) return false;
            }
            return true;
        }
        return false;
    }

    private boolean all(Extension e, SessionJob j, boolean dflt) {
        for (List<Object> tier : tiers(e)) {
            for (Object fn : tier) {
                if (!((JobPredicate) fn).test(j)) return false;
            }
        }
        return dflt;
    }

    /**
     * Volcano's JobEnqueueable: any reject rejects (with its reason); otherwise a tier in which some
     * plugin permits decides; with no votes, the job may enqueue.
     */
    public Vote jobEnqueueable(SessionJob j) {
        for (List<Object> tier : tiers(Extension.JOB_ENQUEUED)) {
            boolean permitted = false;
            for (Object fn : tier) {
                if (!(fn instanceof JobEnqueueableFn f)) continue;
                Vote v = f.vote(j);
                if (v.value() < 0) return v;
                if (v.value() > 0) permitted = true;
            }
            if (permitted) return Vote.PERMIT;
        }
        return Vote.PERMIT;
    }

    /**
     * Allocate's move of a Pending job to Inqueue when no enqueue action is configured, so that a
     * missing gate does not block it; as in Volcano, no enqueue gate is told of it.
     */
    public void inqueueUngated(SessionJob j) {
        j.setPhase(PodGroupPhase.Inqueue);
    }

    /** Moves a job to Inqueue and tells the gates what it now reserves. */
    public void jobEnqueued(SessionJob j) {
        j.setPhase(PodGroupPhase.Inqueue);
        for (List<Object> tier : tiers(Extension.JOB_ENQUEUED)) {
            for (Object fn : tier) {
                if (fn instanceof JobEnqueuedFn f) f.enqueued(j);
            }
        }
    }
}
