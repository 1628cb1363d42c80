package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskStatus;
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
import io.lahar.core.scheduling.framework.Functions.PredicateFn;
import io.lahar.core.scheduling.framework.Functions.PrePredicateFn;
import io.lahar.core.scheduling.framework.Functions.VictimFn;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.SessionResult.PodGroupCondition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One scheduling cycle over a snapshot, as Volcano's framework.Session: it builds the working
 * state (nodes, queues, jobs), opens the configured plugins, which register their functions, runs
 * the actions in order, and closes with the decisions, phases and reasons.
 *
 * <p>Deterministic: nodes, queues and jobs are kept sorted by name, and every ordering falls back
 * to creation order and name.
 */
public final class Session {

    private final SchedulerConf conf;
    private final List<SessionNode> nodes = new ArrayList<>();
    private final Map<String, SessionNode> nodeByName = new HashMap<>();
    private final Map<String, SessionQueue> queues = new TreeMap<>();
    private final List<SessionJob> jobs = new ArrayList<>();
    private final Map<String, SessionJob> jobByKey = new HashMap<>();
    private final List<Problem> problems;
    private final Resource totalResource;
    private final List<Plugin> plugins = new ArrayList<>();
    private final Map<Extension, Map<String, Object>> fns = new EnumMap<>(Extension.class);
    private final Map<Extension, List<List<Object>>> tiersCache = new EnumMap<>(Extension.class);
    private final List<EventHandler> eventHandlers = new ArrayList<>();
    private final List<Statement.Operation> committed = new ArrayList<>();
    private final Map<String, PodGroupPhase> initialPhase = new HashMap<>();
    private final Map<String, Map<String, Object>> pluginState = new HashMap<>();
    private String currentAction = "";
    private CandidateIndex candidateIndex;
    private final Snapshot snapshot;
    private final boolean interPodRules;
    private final Set<String> selectorKeys = new HashSet<>();
    private PodTopology podTopology;

    private Session(SchedulerConf conf, Snapshot snapshot) {
        this.conf = conf;
        this.snapshot = snapshot;
        this.problems = snapshot.validate();
        Map<String, List<String>> problemsByJob = new HashMap<>(); // "jobs[3]" -> "tasks[0].nodeName: ..."
        for (Problem p : problems) {
            int end = p.path().indexOf(']');
            if (p.path().startsWith("jobs[") && end > 0) {
                String rest = p.path().substring(end + 1);
                problemsByJob.computeIfAbsent(p.path().substring(0, end + 1), k -> new ArrayList<>())
                        .add((rest.startsWith(".") ? rest.substring(1) : rest) + ": " + p.message());
            }
        }
        List<NodeInfo> sortedNodes = new ArrayList<>(snapshot.nodes());
        sortedNodes.sort(Comparator.comparing(NodeInfo::name));
        Resource total = Resource.EMPTY;
        for (NodeInfo n : sortedNodes) {
            if (nodeByName.containsKey(n.name())) continue; // duplicate: reported, first kept
            SessionNode sn = new SessionNode(this, nodes.size(), n);
            nodes.add(sn);
            nodeByName.put(n.name(), sn);
            total = total.add(n.allocatable().withPods(0));
        }
        this.totalResource = total;
        boolean rules = false;
        Set<io.lahar.core.scheduling.api.PodSpec> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (NodeInfo n : sortedNodes) {
            for (io.lahar.core.scheduling.api.ForeignPod f : n.foreignPods()) {
                rules |= f.spec().interPod();
                if (seen.add(f.spec())) f.spec().selectorKeys(selectorKeys);
            }
        }
        for (JobInfo j : snapshot.jobs()) {
            for (io.lahar.core.scheduling.api.TaskInfo t : j.tasks()) {
                rules |= t.spec().interPod();
                if (seen.add(t.spec())) t.spec().selectorKeys(selectorKeys);
            }
        }
        this.interPodRules = rules;
        buildQueues(snapshot.queues());
        // Build in creation order (then key), not input order, so every list the actions walk, down
        // to the tasks on a node, is the same however the snapshot was listed.
        // A duplicate key keeps its first listing (the later ones are the reported problems).
        List<Integer> order = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < snapshot.jobs().size(); i++) {
            if (keys.add(snapshot.jobs().get(i).key())) order.add(i);
        }
        order.sort(Comparator.comparingLong((Integer i) -> snapshot.jobs().get(i).creationIndex())
                .thenComparing(i -> snapshot.jobs().get(i).key()).thenComparingInt(i -> i));
        for (int i : order) {
            JobInfo j = snapshot.jobs().get(i);
            List<String> jobProblems = problemsByJob.getOrDefault("jobs[" + i + "]", List.of());
            SessionQueue q = queues.get(j.queue());
            SessionJob sj = new SessionJob(j, q, jobProblems);
            jobs.add(sj);
            jobByKey.put(j.key(), sj);
            initialPhase.put(j.key(), j.phase());
            if (q != null) q.addJob(sj);
            for (SessionTask t : sj.tasks()) {
                TaskStatus s = t.status();
                SessionNode n = t.info().nodeName() == null ? null : nodeByName.get(t.info().nodeName());
                if (n == null) {
                    continue; // a placed task on an unknown node is a snapshot problem; it holds nothing here
                }
                if (s.occupiesNode() || s == TaskStatus.Pipelined) {
                    t.setNode(n);
                    n.addTask(t);
                }
                if (q != null && (s.isAllocated() || s == TaskStatus.Pipelined)) {
                    q.addAllocated(t.resreq());
                }
            }
        }
    }

    private void buildQueues(List<QueueInfo> infos) {
        Map<String, QueueInfo> byName = new LinkedHashMap<>();
        for (QueueInfo q : infos) byName.putIfAbsent(q.name(), q);
        // Volcano always has root (parent of every top-level queue) and default.
        byName.putIfAbsent(QueueInfo.ROOT, new QueueInfo(QueueInfo.ROOT, 1, null, null, false, null, null));
        byName.putIfAbsent("default", QueueInfo.of("default", 1));
        for (QueueInfo q : byName.values()) queues.put(q.name(), new SessionQueue(q));
        for (SessionQueue q : queues.values()) {
            String p = q.info().parent();
            if (p == null) continue;
            SessionQueue parent = queues.get(p);
            if (parent == null || createsCycle(q, parent)) parent = queues.get(QueueInfo.ROOT); // reported by validate()
            q.link(parent);
        }
    }

    private static boolean createsCycle(SessionQueue child, SessionQueue parent) {
        for (SessionQueue a = parent; a != null; a = a.parent()) {
            if (a == child) return true;
        }
        return false;
    }

    /** Opens a session: builds the state and opens the configured plugins in tier order. */
    public static Session open(SchedulerConf conf, Snapshot snapshot, PluginRegistry registry) {
        Session ssn = new Session(conf, snapshot);
        for (Tier tier : conf.tiers()) {
            for (PluginOption option : tier.plugins()) {
                Plugin p = registry.newPlugin(option);
                ssn.plugins.add(p);
                p.onSessionOpen(ssn);
            }
        }
        return ssn;
    }

    // ---------------------------------------------------------------- state

    public SchedulerConf conf() {
        return conf;
    }

    /** Nodes sorted by name. */
    public List<SessionNode> nodes() {
        return java.util.Collections.unmodifiableList(nodes);
    }

    public SessionNode node(String name) {
        return nodeByName.get(name);
    }

    /** Jobs in creation order. */
    public List<SessionJob> jobs() {
        return java.util.Collections.unmodifiableList(jobs);
    }

    public SessionJob job(String key) {
        return jobByKey.get(key);
    }

    /** Queues sorted by name, root included. */
    public Map<String, SessionQueue> queues() {
        return java.util.Collections.unmodifiableMap(queues);
    }

    public SessionQueue queue(String name) {
        return queues.get(name);
    }

    public SessionQueue rootQueue() {
        return queues.get(QueueInfo.ROOT);
    }

    /** The sum of every node's allocatable resources (no pods dimension). */
    public Resource totalResource() {
        return totalResource;
    }

    /** The action now running, recorded on each decision. */
    public String currentAction() {
        return currentAction;
    }

    /** A place for a plugin to share state it computed with others (e.g. the gang's reasons). */
    public Map<String, Object> pluginState(String plugin) {
        return pluginState.computeIfAbsent(plugin, k -> new HashMap<>());
    }

    /** The index of nodes by score per task class, built on first use (see {@link CandidateIndex}). */
    public CandidateIndex candidateIndex() {
        if (candidateIndex == null) candidateIndex = new CandidateIndex(this);
        return candidateIndex;
    }

    /**
     * Whether any pod of the snapshot (task or foreign) has inter-pod affinity, topology spread
     * constraints or host ports; when none has, the inter-pod rules concern no placement.
     */
    public boolean hasInterPodRules() {
        return interPodRules;
    }

    /**
     * The label keys some selector of the snapshot's pods names (their terms' and spread
     * constraints'): pods whose labels agree on these are told apart by no inter-pod rule.
     */
    public Set<String> selectorKeys() {
        return java.util.Collections.unmodifiableSet(selectorKeys);
    }

    /** The session's pods by topology domain and label, made on first use (see {@link PodTopology}). */
    public PodTopology podTopology() {
        if (podTopology == null) {
            podTopology = new PodTopology(this);
            eventHandlers.add(podTopology);
        }
        return podTopology;
    }

    /** A namespace's labels, for namespace selectors (see {@link Snapshot#namespaceLabels}). */
    public Map<String, String> namespaceLabels(String namespace) {
        return snapshot.namespaceLabels(namespace);
    }

    void nodeChanged(int node) {
        if (candidateIndex != null) candidateIndex.nodeChanged(node);
    }

    public Statement statement() {
        return new Statement(this);
    }

    // ---------------------------------------------------------------- registration

    private void register(Extension e, String plugin, Object fn) {
        fns.computeIfAbsent(e, k -> new LinkedHashMap<>()).put(plugin, fn);
        tiersCache.remove(e);
    }

    public void addJobOrderFn(String plugin, Comparator<SessionJob> fn) { register(Extension.JOB_ORDER, plugin, fn); }

    public void addQueueOrderFn(String plugin, Comparator<SessionQueue> fn) { register(Extension.QUEUE_ORDER, plugin, fn); }

    public void addTaskOrderFn(String plugin, Comparator<SessionTask> fn) { register(Extension.TASK_ORDER, plugin, fn); }

    public void addPredicateFn(String plugin, PredicateFn fn) { register(Extension.PREDICATE, plugin, fn); }

    /** Under the plugin's predicate switch, beside its stateless predicate. */
    public void addPrePredicateFn(String plugin, PrePredicateFn fn) {
        fns.computeIfAbsent(Extension.PREDICATE, k -> new LinkedHashMap<>()).put(plugin + "#pre", fn);
        tiersCache.remove(Extension.PREDICATE);
    }

    public void addNodeOrderFn(String plugin, NodeOrderFn fn) { register(Extension.NODE_ORDER, plugin, fn); }

    /** Under the plugin's node-order switch, beside its per-node scores. */
    public void addBatchNodeOrderFn(String plugin, BatchNodeOrderFn fn) {
        fns.computeIfAbsent(Extension.NODE_ORDER, k -> new LinkedHashMap<>()).put(plugin + "#batch", fn);
        tiersCache.remove(Extension.NODE_ORDER);
    }

    public void addPreemptableFn(String plugin, VictimFn fn) { register(Extension.PREEMPTABLE, plugin, fn); }

    public void addReclaimableFn(String plugin, VictimFn fn) { register(Extension.RECLAIMABLE, plugin, fn); }

    public void addOverusedFn(String plugin, OverusedFn fn) { register(Extension.OVERUSED, plugin, fn); }

    public void addAllocatableFn(String plugin, AllocatableFn fn) { register(Extension.ALLOCATABLE, plugin, fn); }

    /** Volcano's PreemptiveFn: whether a queue may reclaim for a task (reclaim asks it instead of allocatable). */
    public void addPreemptiveFn(String plugin, AllocatableFn fn) { register(Extension.PREEMPTIVE, plugin, fn); }

    public void addJobValidFn(String plugin, JobValidFn fn) { register(Extension.JOB_VALID, plugin, fn); }

    public void addJobReadyFn(String plugin, JobPredicate fn) { register(Extension.JOB_READY, plugin, fn); }

    public void addJobPipelinedFn(String plugin, Functions.JobPipelinedFn fn) { register(Extension.JOB_PIPELINED, plugin, fn); }

    public void addJobStarvingFn(String plugin, JobPredicate fn) { register(Extension.JOB_STARVING, plugin, fn); }

    public void addJobEnqueueableFn(String plugin, JobEnqueueableFn fn) { register(Extension.JOB_ENQUEUED, plugin, fn); }

    /** Keyed apart from the enqueueable vote so a plugin may register both under one switch. */
    public void addJobEnqueuedFn(String plugin, JobEnqueuedFn fn) {
        fns.computeIfAbsent(Extension.JOB_ENQUEUED, k -> new LinkedHashMap<>()).put(plugin + "#enqueued", fn);
        tiersCache.remove(Extension.JOB_ENQUEUED);
    }

    public void addEventHandler(EventHandler h) {
        eventHandlers.add(h);
    }

    /** The enabled functions of one kind, grouped by tier, in configuration order. */
    private List<List<Object>> tiers(Extension e) {
        List<List<Object>> cached = tiersCache.get(e);
        if (cached != null) return cached;
        Map<String, Object> registered = fns.getOrDefault(e, Map.of());
        List<List<Object>> out = new ArrayList<>();
        for (Tier tier : conf.tiers()) {
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

    /** The first tier with victim functions decides; within a tier, the plugins' answers intersect. */
    private List<SessionTask> victims(Extension e, SessionTask preemptor, List<SessionTask> candidates) {
        for (List<Object> tier : tiers(e)) {
            if (tier.isEmpty()) continue;
            Set<SessionTask> victims = null;
            for (Object fn : tier) {
                List<SessionTask> v = ((VictimFn) fn).select(preemptor, candidates);
                if (victims == null) victims = new LinkedHashSet<>(v);
                else victims.retainAll(new HashSet<>(v));
            }
            return new ArrayList<>(victims);
        }
        return List.of();
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
        for (Tier tier : conf.tiers()) {
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

    /** The time of the session, as the snapshot gives it; null when not known. */
    public java.time.Instant now() {
        return snapshot.now();
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

    /** Moves a job to Inqueue and tells the gates what it now reserves. */
    public void jobEnqueued(SessionJob j) {
        j.setPhase(PodGroupPhase.Inqueue);
        for (List<Object> tier : tiers(Extension.JOB_ENQUEUED)) {
            for (Object fn : tier) {
                if (fn instanceof JobEnqueuedFn f) f.enqueued(j);
            }
        }
    }

    // ---------------------------------------------------------------- operations (via Statement)

    Statement.Operation applyAllocate(SessionTask t, SessionNode n) {
        TaskStatus prev = t.status();
        t.setNode(n);
        t.setStatus(TaskStatus.Allocated);
        n.addTask(t);
        if (t.job().queue() != null) t.job().queue().addAllocated(t.resreq());
        for (EventHandler h : eventHandlers) h.allocated(t);
        return new Statement.Operation(Statement.Kind.ALLOCATE, t, n, prev, null, currentAction);
    }

    Statement.Operation applyPipeline(SessionTask t, SessionNode n) {
        TaskStatus prev = t.status();
        t.setNode(n);
        t.setStatus(TaskStatus.Pipelined);
        n.addTask(t);
        if (t.job().queue() != null) t.job().queue().addAllocated(t.resreq());
        for (EventHandler h : eventHandlers) h.allocated(t);
        return new Statement.Operation(Statement.Kind.PIPELINE, t, n, prev, null, currentAction);
    }

    Statement.Operation applyEvict(SessionTask t, String reason) {
        TaskStatus prev = t.status();
        SessionNode n = t.node();
        n.removeTask(t, prev);
        t.setStatus(TaskStatus.Releasing);
        n.addTask(t);
        if (t.job().queue() != null && (prev.isAllocated() || prev == TaskStatus.Pipelined)) {
            t.job().queue().subAllocated(t.resreq());
        }
        for (EventHandler h : eventHandlers) h.deallocated(t);
        return new Statement.Operation(Statement.Kind.EVICT, t, n, prev, reason, currentAction);
    }

    void undo(Statement.Operation op) {
        SessionTask t = op.task();
        SessionNode n = op.node();
        switch (op.kind()) {
            case ALLOCATE, PIPELINE -> {
                n.removeTask(t, t.status());
                t.setStatus(op.previous());
                t.setNode(null);
                if (t.job().queue() != null) t.job().queue().subAllocated(t.resreq());
                for (EventHandler h : eventHandlers) h.deallocated(t);
            }
            case EVICT -> {
                n.removeTask(t, TaskStatus.Releasing);
                t.setStatus(op.previous());
                n.addTask(t);
                if (t.job().queue() != null && (op.previous().isAllocated() || op.previous() == TaskStatus.Pipelined)) {
                    t.job().queue().addAllocated(t.resreq());
                }
                for (EventHandler h : eventHandlers) h.allocated(t);
            }
        }
    }

    void recordCommitted(List<Statement.Operation> ops) {
        committed.addAll(ops);
    }

    // ---------------------------------------------------------------- running

    /** Runs the configured actions in order, then closes the session. */
    public SessionResult run(PluginRegistry registry) {
        for (String name : conf.actions()) {
            currentAction = name;
            registry.newAction(name).execute(this);
        }
        currentAction = "";
        return close();
    }

    /** Closes the plugins and gathers the decisions, phases and conditions. */
    public SessionResult close() {
        for (int i = plugins.size() - 1; i >= 0; i--) plugins.get(i).onSessionClose(this);
        List<SessionResult.Binding> bindings = new ArrayList<>();
        List<SessionResult.Nomination> nominations = new ArrayList<>();
        List<SessionResult.Eviction> evictions = new ArrayList<>();
        for (Statement.Operation op : committed) {
            SessionTask t = op.task();
            String job = t.job().key();
            switch (op.kind()) {
                case ALLOCATE -> {
                    if (t.status() != TaskStatus.Allocated || t.node() != op.node()) continue; // later evicted
                    // A gang binds whole: allocations of a job that is not ready are only reserved.
                    if (jobReady(t.job())) bindings.add(new SessionResult.Binding(job, t.name(), op.node().name(), op.action()));
                    else nominations.add(new SessionResult.Nomination(job, t.name(), op.node().name(), op.action()));
                }
                case PIPELINE -> {
                    if (t.status() == TaskStatus.Pipelined && t.node() == op.node()) {
                        nominations.add(new SessionResult.Nomination(job, t.name(), op.node().name(), op.action()));
                    }
                }
                case EVICT -> evictions.add(new SessionResult.Eviction(job, t.name(), op.node().name(), op.action(), op.reason()));
            }
        }
        List<SessionResult.PhaseChange> changes = new ArrayList<>();
        Map<String, PodGroupCondition> conditions = new TreeMap<>();
        for (SessionJob j : jobs) {
            PodGroupPhase before = initialPhase.get(j.key());
            PodGroupPhase after = jobStatus(j);
            if (after != before) changes.add(new SessionResult.PhaseChange(j.key(), before, after));
            PodGroupCondition c = condition(j, after);
            if (c != null) conditions.put(j.key(), c);
        }
        List<SessionResult.QueueStatus> queueStatuses = new ArrayList<>();
        for (SessionQueue q : queues.values()) {
            queueStatuses.add(new SessionResult.QueueStatus(q.name(), q.deserved(), q.allocated(), q.state(), q.capability(),
                    q.info().guarantee().withPods(0), q.enforcedBy()));
        }
        return new SessionResult(bindings, nominations, evictions, changes, conditions, queueStatuses, problems);
    }

    /**
     * Volcano's jobStatus, recomputed every session: Unknown when some tasks run but the gang is not
     * whole; Running once minMember tasks hold a node or finished (succeeded or failed), Completed
     * when those tasks are all finished; otherwise Inqueue stays Inqueue and anything else is
     * Pending. Completed is not final: a task created again (RestartTask, a scale up) makes the group
     * Running or Pending at the next session.
     */
    private PodGroupPhase jobStatus(SessionJob j) {
        PodGroupPhase p = j.phase();
        if (!j.problems().isEmpty()) return p;
        boolean hasRunning = false;
        for (SessionTask t : j.tasks()) {
            if (t.status() == TaskStatus.Running) {
                hasRunning = true;
                break;
            }
        }
        if (hasRunning && !j.isReady()) return PodGroupPhase.Unknown;
        int allocated = j.holdingTaskNum() + j.finishedTaskNum();
        if (allocated >= j.info().minMember()) {
            return j.holdingTaskNum() == 0 ? PodGroupPhase.Completed : PodGroupPhase.Running;
        }
        return p == PodGroupPhase.Inqueue ? PodGroupPhase.Inqueue : PodGroupPhase.Pending;
    }

    private PodGroupCondition condition(SessionJob j, PodGroupPhase phase) {
        if (!j.problems().isEmpty()) {
            return new PodGroupCondition(PodGroupCondition.UNSCHEDULABLE, "True", "InvalidPodGroup", UnschedulableMessage.of(j));
        }
        if (phase == PodGroupPhase.Completed) return null;
        if (j.isReady() && (j.readyTaskNum() > 0 || j.tasks().isEmpty())) {
            // Volcano's Scheduled condition; tasks beyond the gang that are still pending do not make it pending.
            return new PodGroupCondition(PodGroupCondition.SCHEDULED, "True", "tasks in gang are ready to be scheduled", "");
        }
        // A pod group whose pods are not created yet (before enqueue) waits for resources, not for tasks.
        String reason = !j.isValid() && !j.tasks().isEmpty() ? "NotEnoughTasks" : "NotEnoughResources";
        return new PodGroupCondition(PodGroupCondition.UNSCHEDULABLE, "True", reason, UnschedulableMessage.of(j));
    }
}
