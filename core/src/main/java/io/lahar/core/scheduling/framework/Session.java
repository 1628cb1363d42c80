package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Functions.EventHandler;
import io.lahar.core.scheduling.framework.SessionResult.PodGroupCondition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
public final class Session extends SessionPlugins {

    private final SchedulerConf conf;
    private final List<SessionNode> nodes = new ArrayList<>();
    private final Map<String, SessionNode> nodeByName = new HashMap<>();
    private final Map<String, SessionQueue> queues = new TreeMap<>();
    private final List<SessionJob> jobs = new ArrayList<>();
    private final Map<String, SessionJob> jobByKey = new HashMap<>();
    private final List<Problem> problems;
    private final Resource totalResource;
    private final List<Plugin> plugins = new ArrayList<>();
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
                problemsByJob
                        .computeIfAbsent(p.path().substring(0, end + 1), k -> new ArrayList<>())
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
        Set<io.lahar.core.scheduling.api.PodSpec> seen =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (NodeInfo n : sortedNodes) {
            for (io.lahar.core.scheduling.api.ForeignPod f : n.foreignPods()) {
                if (f.spec().interPod()) {
                    rules = true;
                    if (seen.add(f.spec())) f.spec().selectorKeys(selectorKeys);
                }
            }
        }
        for (JobInfo j : snapshot.jobs()) {
            for (io.lahar.core.scheduling.api.TaskInfo t : j.tasks()) {
                // Only a spec with inter-pod terms has selector keys: the set holds those alone, not
                // every task of the cluster, at each session.
                if (t.spec().interPod()) {
                    rules = true;
                    if (seen.add(t.spec())) t.spec().selectorKeys(selectorKeys);
                }
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
        order.sort(
                Comparator.comparingLong((Integer i) -> snapshot.jobs().get(i).creationIndex())
                        .thenComparing(i -> snapshot.jobs().get(i).key())
                        .thenComparingInt(i -> i));
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
                SessionNode n = t.info().nodeName() == null
                        ? null
                        : nodeByName.get(t.info().nodeName());
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
            if (parent == null || createsCycle(q, parent))
                parent = queues.get(QueueInfo.ROOT); // reported by validate()
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

    @Override
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
            addEventHandler(podTopology);
        }
        return podTopology;
    }

    /** A namespace's labels, for namespace selectors (see {@link Snapshot#namespaceLabels}). */
    public Map<String, String> namespaceLabels(String namespace) {
        return snapshot.namespaceLabels(namespace);
    }

    /** The time of the session, as the snapshot gives it; null when not known. */
    public java.time.Instant now() {
        return snapshot.now();
    }

    void nodeChanged(int node) {
        if (candidateIndex != null) candidateIndex.nodeChanged(node);
    }

    public Statement statement() {
        return new Statement(this);
    }

    // ---------------------------------------------------------------- operations (via Statement)

    Statement.Operation applyAllocate(SessionTask t, SessionNode n) {
        TaskStatus prev = t.status();
        t.setNode(n);
        t.setStatus(TaskStatus.Allocated);
        n.addTask(t);
        if (t.job().queue() != null) t.job().queue().addAllocated(t.resreq());
        for (EventHandler h : eventHandlers()) h.allocated(t);
        return new Statement.Operation(Statement.Kind.ALLOCATE, t, n, prev, null, currentAction);
    }

    Statement.Operation applyPipeline(SessionTask t, SessionNode n) {
        TaskStatus prev = t.status();
        t.setNode(n);
        t.setStatus(TaskStatus.Pipelined);
        n.addTask(t);
        if (t.job().queue() != null) t.job().queue().addAllocated(t.resreq());
        for (EventHandler h : eventHandlers()) h.allocated(t);
        return new Statement.Operation(Statement.Kind.PIPELINE, t, n, prev, null, currentAction);
    }

    Statement.Operation applyUnpipeline(SessionTask t) {
        TaskStatus prev = t.status();
        if (prev != TaskStatus.Pipelined) throw new IllegalStateException(t + " is " + prev + ", not Pipelined");
        SessionNode n = t.node();
        n.removeTask(t, prev);
        t.setStatus(TaskStatus.Pending);
        t.setNode(null);
        if (t.job().queue() != null) t.job().queue().subAllocated(t.resreq());
        for (EventHandler h : eventHandlers()) h.deallocated(t);
        return new Statement.Operation(Statement.Kind.UNPIPELINE, t, n, prev, null, currentAction);
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
        for (EventHandler h : eventHandlers()) h.deallocated(t);
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
                for (EventHandler h : eventHandlers()) h.deallocated(t);
            }
            case UNPIPELINE -> {
                t.setNode(n);
                t.setStatus(op.previous());
                n.addTask(t);
                if (t.job().queue() != null) t.job().queue().addAllocated(t.resreq());
                for (EventHandler h : eventHandlers()) h.allocated(t);
            }
            case EVICT -> {
                n.removeTask(t, TaskStatus.Releasing);
                t.setStatus(op.previous());
                n.addTask(t);
                if (t.job().queue() != null && (op.previous().isAllocated() || op.previous() == TaskStatus.Pipelined)) {
                    t.job().queue().addAllocated(t.resreq());
                }
                for (EventHandler h : eventHandlers()) h.allocated(t);
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
                    if (jobReady(t.job()))
                        bindings.add(new SessionResult.Binding(
                                job, t.name(), op.node().name(), op.action()));
                    else
                        nominations.add(new SessionResult.Nomination(
                                job, t.name(), op.node().name(), op.action()));
                }
                case PIPELINE -> {
                    if (t.status() == TaskStatus.Pipelined && t.node() == op.node()) {
                        nominations.add(new SessionResult.Nomination(
                                job, t.name(), op.node().name(), op.action()));
                    }
                }
                case UNPIPELINE -> {
                    // Nothing to tell: the PIPELINE operation that put the task there no longer holds.
                }
                case EVICT ->
                    evictions.add(
                            new SessionResult.Eviction(job, t.name(), op.node().name(), op.action(), op.reason()));
            }
        }
        List<SessionResult.PhaseChange> changes = new ArrayList<>();
        Map<String, PodGroupCondition> conditions = new TreeMap<>();
        for (SessionJob j : jobs) {
            PodGroupPhase before = initialPhase.get(j.key());
            PodGroupPhase after = JobUpdater.phase(j);
            if (after != before) changes.add(new SessionResult.PhaseChange(j.key(), before, after));
            PodGroupCondition c = JobUpdater.condition(j, after);
            if (c != null) conditions.put(j.key(), c);
        }
        List<SessionResult.QueueStatus> queueStatuses = new ArrayList<>();
        for (SessionQueue q : queues.values()) {
            queueStatuses.add(new SessionResult.QueueStatus(
                    q.name(),
                    q.deserved(),
                    q.allocated(),
                    q.state(),
                    q.capability(),
                    q.info().guarantee().withPods(0),
                    q.enforcedBy()));
        }
        return new SessionResult(bindings, nominations, evictions, changes, conditions, queueStatuses, problems);
    }
}
