package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import io.lahar.core.scheduling.framework.SessionQueue;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's capacity plugin: each queue is given what its {@code deserved} says (at least its
 * guarantee), may hold up to its real capability (its capability, within what the other queues'
 * guarantees leave), and gives back, when reclaimed, what it holds beyond its deserved share.
 *
 * <p>Flat (the default): the queues with jobs; the deserved share is capped by the real capability.
 * With {@code enableHierarchy: true}: every queue of the tree; a child's unset cpu and memory
 * capability and unnamed scalars come from its parent, its real capability is its parent's less its
 * siblings' guarantees, root deserves what its children deserve together, and what a queue holds,
 * requests and reserves counts for all its ancestors; a task or a gang must fit the real capability
 * of its queue and of every ancestor; jobs go to leaf queues only (a job in a queue with children
 * stops the plugin, as in Volcano); queues are ordered leaf before parent, and two leaves by the
 * shares of their branches under their nearest common ancestor.
 *
 * <p>Reclaim takes, from other queues, a task only while its queue keeps its guarantee and either
 * deserves none of what the task holds or holds more than it deserves in a dimension the task uses;
 * with {@code ancestorReclaimLevel: N} (hierarchy), the queue's ancestors up to N levels (not one
 * shared with the reclaimer) must be over their deserved share too, and a queue may reclaim when an
 * ancestor within those levels still deserves more. Queue order: higher {@code priority} first,
 * then the smaller share of the deserved, a queue with a deserved share before one without.
 */
public final class Capacity implements Plugin {
    public static final String NAME = "capacity";
    static final String ANCESTOR_RECLAIM_LEVEL = "ancestorReclaimLevel";
    private static final String ROOT = "root";

    /** Volcano's queueAttr. */
    private static final class Attr {
        final SessionQueue queue;
        final List<Attr> ancestors = new ArrayList<>(); // root first, the parent last
        final List<Attr> children = new ArrayList<>();
        Resource deserved;
        Resource request = Resource.EMPTY;
        Resource inqueue = Resource.EMPTY;
        Resource elastic = Resource.EMPTY;
        Resource capability;
        Resource realCapability;
        Resource guarantee;

        Attr(SessionQueue queue) {
            this.queue = queue;
            this.deserved = queue.info().deserved() == null
                    ? Resource.EMPTY
                    : queue.info().deserved().withPods(0);
            this.guarantee = queue.info().guarantee().withPods(0);
        }

        Resource allocated() {
            return queue.allocated().withPods(0);
        }

        boolean leaf() {
            return children.isEmpty();
        }
    }

    private final int ancestorReclaimLevel;
    private final Map<SessionQueue, Attr> attrs = new LinkedHashMap<>();
    private boolean hierarchy;
    /** Why the plugin refuses everything this session (a job in a non-leaf queue), or null. */
    private String broken;

    public Capacity(Arguments args) {
        ancestorReclaimLevel = args.getInt(ANCESTOR_RECLAIM_LEVEL, 0);
        if (ancestorReclaimLevel < 0) {
            throw new IllegalArgumentException(
                    "argument " + ANCESTOR_RECLAIM_LEVEL + ": must not be negative, got " + ancestorReclaimLevel);
        }
        for (String key : List.of("capacity.DynamicResourceAllocationEnable", "capacity.DRAConsumableCapacityEnable")) {
            if (args.getBool(key, false)) {
                throw new IllegalArgumentException(
                        "argument " + key + ": only false is supported (a snapshot has no resource claims)");
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        hierarchy = ssn.hierarchyEnabled(NAME);
        if (hierarchy) buildHierarchy(ssn);
        else buildFlat(ssn);
        for (Attr a : attrs.values()) a.queue.enforce(NAME, a.deserved, a.realCapability);

        ssn.addQueueOrderFn(NAME, this::compareQueues);
        ssn.addAllocatableFn(NAME, this::allocatable);
        ssn.addPreemptiveFn(NAME, this::preemptive);
        ssn.addReclaimableFn(NAME, this::reclaimable);
        ssn.addJobEnqueueableFn(NAME, this::enqueueable);
        ssn.addJobEnqueuedFn(NAME, j -> {
            Attr a = attrs.get(j.queue());
            Resource min = j.info().minResources().withPods(0);
            if (a == null || min.isEmpty()) return;
            a.inqueue = a.inqueue.add(min);
            if (hierarchy) for (Attr anc : a.ancestors) anc.inqueue = anc.inqueue.add(min);
        });
    }

    // ---------------------------------------------------------------- building

    private void buildFlat(Session ssn) {
        Resource totalGuarantee = Resource.EMPTY;
        for (SessionQueue q : ssn.queues().values())
            totalGuarantee = totalGuarantee.add(q.info().guarantee().withPods(0));
        Resource free = ssn.totalResource().subClamped(totalGuarantee);
        for (SessionJob j : ssn.jobs()) {
            if (j.queue() == null || !j.problems().isEmpty()) continue;
            Attr a = attrs.computeIfAbsent(j.queue(), q -> {
                Attr n = new Attr(q);
                n.capability = q.info().capability().withPods(0);
                n.realCapability = free.add(n.guarantee).minWithDimension(n.capability);
                return n;
            });
            count(a, j);
        }
        for (Attr a : attrs.values())
            a.deserved = a.deserved.minWithDimension(a.realCapability).max(a.guarantee);
    }

    private void buildHierarchy(Session ssn) {
        for (SessionQueue q : ssn.queues().values()) attrs.put(q, new Attr(q));
        for (Attr a : attrs.values()) {
            for (SessionQueue p = a.queue.parent(); p != null; p = p.parent()) a.ancestors.add(0, attrs.get(p));
            if (a.queue.parent() != null) attrs.get(a.queue.parent()).children.add(a);
            Resource cap = a.queue.info().capability().withPods(0);
            a.capability = cap;
        }
        for (SessionJob j : ssn.jobs()) {
            Attr a = j.queue() == null ? null : attrs.get(j.queue());
            if (a == null || !j.problems().isEmpty()) continue;
            if (!a.leaf()) {
                broken = "capacity: job " + j.key() + " is in queue \"" + a.queue.name()
                        + "\", which is not a leaf queue";
                continue;
            }
            Resource req0 = a.request;
            Resource in0 = a.inqueue;
            Resource el0 = a.elastic;
            count(a, j);
            for (Attr anc : a.ancestors) {
                anc.request = anc.request.add(a.request.sub(req0));
                anc.inqueue = anc.inqueue.add(a.inqueue.sub(in0));
                anc.elastic = anc.elastic.add(a.elastic.sub(el0));
            }
        }
        Attr root = attrs.get(ssn.rootQueue());
        if (root.queue.info().capability().equals(Resource.unlimited())) {
            // Volcano: root without a capability is unlimited in cpu, memory and every scalar the cluster has.
            Map<String, Long> scalars = new java.util.TreeMap<>();
            for (String s : ssn.totalResource().scalars().keySet()) scalars.put(s, Resource.UNLIMITED);
            root.capability = Resource.of(Resource.UNLIMITED, Resource.UNLIMITED, 0, scalars);
        }
        root.realCapability = root.capability;
        checkHierarchy(root);
    }

    /** Volcano's checkHierarchicalQueue: deserved, inherited capabilities and real capabilities down the tree. */
    private void checkHierarchy(Attr parent) {
        Resource totalGuarantee = Resource.EMPTY;
        Resource totalDeserved = Resource.EMPTY;
        for (Attr c : parent.children) {
            c.deserved = c.deserved.max(c.guarantee);
            totalDeserved = totalDeserved.add(c.deserved);
            totalGuarantee = totalGuarantee.add(c.guarantee);
            c.capability = inherit(c, parent);
        }
        if (parent.queue.name().equals(ROOT)) {
            parent.guarantee = totalGuarantee;
            parent.deserved = totalDeserved;
        }
        for (Attr c : parent.children) {
            c.realCapability = parent.realCapability
                    .subClamped(totalGuarantee)
                    .add(c.guarantee)
                    .minWithDimension(c.capability);
        }
        for (Attr c : parent.children) checkHierarchy(c);
    }

    /** A child's capability: cpu and memory its own when set above 0, else its parent's; scalars it does not name, its parent's. */
    private static Resource inherit(Attr child, Attr parent) {
        Resource own = child.capability;
        Map<String, Long> scalars = new java.util.TreeMap<>(parent.capability.scalars());
        scalars.putAll(own.scalars());
        long cpu = own.milliCpu() <= 0 || own.milliCpu() == Resource.UNLIMITED
                ? parent.capability.milliCpu()
                : own.milliCpu();
        long mem = own.memory() <= 0 || own.memory() == Resource.UNLIMITED ? parent.capability.memory() : own.memory();
        return Resource.of(cpu, mem, Resource.UNLIMITED, scalars);
    }

    /** A job's request (pending and allocated tasks), inqueue reservation and elastic resources. */
    private static void count(Attr a, SessionJob j) {
        for (SessionTask t : j.tasks()) {
            TaskStatus s = t.status();
            if (s == TaskStatus.Pending || s.isAllocated()) a.request = a.request.add(t.resreq());
        }
        a.inqueue = a.inqueue.add(j.inqueueReservation());
        a.elastic = a.elastic.add(
                j.allocated().withPods(0).subClamped(j.info().minResources().withPods(0)));
    }

    // ---------------------------------------------------------------- order and share

    /** No deserved share: 1 (a best-effort queue goes after those still short of theirs). */
    private static double share(Attr a) {
        if (a.deserved.isEmpty()) return 1;
        double s = 0;
        Resource alloc = a.allocated();
        for (String d : a.deserved.names()) s = Math.max(s, Drf.fraction(alloc.get(d), a.deserved.get(d)));
        return s;
    }

    private static int compareShares(Attr l, Attr r) {
        double ls = share(l);
        double rs = share(r);
        if (ls == rs) {
            boolean lh = !l.deserved.isEmpty();
            boolean rh = !r.deserved.isEmpty();
            return lh == rh ? 0 : lh ? -1 : 1;
        }
        return ls < rs ? -1 : 1;
    }

    private int compareQueues(SessionQueue lq, SessionQueue rq) {
        int c = Integer.compare(rq.info().priority(), lq.info().priority());
        if (c != 0) return c;
        Attr l = attrs.get(lq);
        Attr r = attrs.get(rq);
        if (l == null || r == null) return 0;
        if (!hierarchy) return compareShares(l, r);
        if (l.leaf() != r.leaf()) return l.leaf() ? -1 : 1;
        if (!l.leaf()) return compareShares(l, r);
        int level = commonLevel(l, r);
        Attr lb = level + 1 < l.ancestors.size() ? l.ancestors.get(level + 1) : l;
        Attr rb = level + 1 < r.ancestors.size() ? r.ancestors.get(level + 1) : r;
        return compareShares(lb, rb);
    }

    /** Volcano's getQueueLevel: the index of the deepest ancestor two queues share. */
    private static int commonLevel(Attr l, Attr r) {
        int level = 0;
        for (int i = 0; i < Math.min(l.ancestors.size(), r.ancestors.size()); i++) {
            if (l.ancestors.get(i) != r.ancestors.get(i)) return level;
            level = i;
        }
        return level;
    }

    // ---------------------------------------------------------------- gates

    private String allocatable(SessionQueue q, SessionTask t) {
        if (!q.isOpen()) return "queue \"" + q.name() + "\" is " + q.state() + " and takes no new work";
        if (broken != null) return broken;
        Attr a = attrs.get(q);
        if (a == null) return null;
        if (hierarchy && !a.leaf()) return "queue \"" + q.name() + "\" is not a leaf queue";
        for (Attr x : chain(a)) {
            String over = Queues.exceeds(x.queue, "capability", x.allocated(), t.resreq(), x.realCapability);
            if (over != null) return over;
        }
        return null;
    }

    private Vote enqueueable(SessionJob j) {
        if (broken != null) return Vote.reject(broken);
        SessionQueue q = j.queue();
        Attr a = attrs.get(q);
        if (a == null) return Vote.PERMIT;
        if (hierarchy && !a.leaf()) return Vote.reject("queue \"" + q.name() + "\" is not a leaf queue");
        if (!q.isOpen()) return Vote.reject("queue \"" + q.name() + "\" is " + q.state() + " and takes no new work");
        Resource min = j.info().minResources().withPods(0);
        if (min.isEmpty()) return Vote.PERMIT;
        for (Attr x : chain(a)) {
            String over = Queues.overCapability(x.queue, min, x.allocated(), x.inqueue, x.elastic, x.realCapability);
            if (over != null) return Vote.reject(over);
        }
        return Vote.PERMIT;
    }

    /** The queue, then its ancestors up to root (only the queue when flat). */
    private List<Attr> chain(Attr a) {
        if (!hierarchy) return List.of(a);
        List<Attr> out = new ArrayList<>(a.ancestors.size() + 1);
        out.add(a);
        for (int i = a.ancestors.size() - 1; i >= 0; i--) out.add(a.ancestors.get(i));
        return out;
    }

    /**
     * Volcano's PreemptiveFn: the queue may reclaim for the task while it stays within its real
     * capability and is still below its deserved share in a dimension the task uses (or, with
     * ancestorReclaimLevel, an ancestor within those levels is).
     */
    private String preemptive(SessionQueue q, SessionTask t) {
        if (broken != null) return broken;
        if (!q.isOpen()) return "queue \"" + q.name() + "\" is " + q.state() + " and takes no new work";
        Attr a = attrs.get(q);
        if (a == null) return null;
        Resource req = t.resreq();
        String over = Queues.exceeds(q, "capability", a.allocated(), req, a.realCapability);
        if (over != null) return over;
        if (belowDeservedSomewhere(a.allocated().add(req), a.deserved, req)) return null;
        if (hierarchy) {
            for (int level = 1; level <= ancestorReclaimLevel; level++) {
                Attr anc = ancestorAt(a, level);
                if (anc == null || anc.queue.isRoot()) continue;
                if (belowDeservedSomewhere(anc.allocated().add(req), anc.deserved, req)) return null;
            }
        }
        return "queue \"" + q.name() + "\" holds its whole deserved share " + a.deserved
                + " in every resource the task asks for";
    }

    /** Volcano's LessEqualPartlyWithDimensionZeroFiltered: some dimension the request uses is at most the deserved. */
    private static boolean belowDeservedSomewhere(Resource used, Resource deserved, Resource req) {
        for (String d : req.names()) {
            if (Resource.PODS.equals(d) || (used.get(d) == 0 && deserved.get(d) == 0)) continue;
            if (used.get(d) <= deserved.get(d)) return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- reclaim

    private List<SessionTask> reclaimable(SessionTask reclaimer, List<SessionTask> reclaimees) {
        List<SessionTask> victims = new ArrayList<>();
        if (broken != null) return victims;
        Attr reclaimerAttr = attrs.get(reclaimer.job().queue());
        if (reclaimerAttr == null) return victims;
        Map<Attr, Resource> allocations = new HashMap<>();
        for (SessionTask v : reclaimees) {
            Attr a = attrs.get(v.job().queue());
            if (a == null || intersection(v.resreq(), reclaimer.resreq()).isEmpty()) continue;
            Resource allocated = allocations.computeIfAbsent(a, Attr::allocated);
            if (!a.guarantee.lessEqual(allocated.sub(v.resreq()))) continue; // would break its guarantee
            boolean eligible;
            if (intersection(v.resreq(), a.deserved).isEmpty()) {
                // It deserves none of what the task holds: an immediate victim, unless both queues share an
                // ancestor within the reclaim levels and the reclaimer deserves nothing the task asks for either.
                eligible = !(hierarchy
                        && ancestorReclaimLevel > 0
                        && sharesAncestor(reclaimerAttr, a)
                        && intersection(reclaimer.resreq(), reclaimerAttr.deserved)
                                .isEmpty());
            } else {
                eligible = overDeserved(allocated, a.deserved, v.resreq());
            }
            if (!eligible) continue;
            List<Attr> ancestorsToCharge = new ArrayList<>();
            if (hierarchy) {
                for (int level = 1; level <= ancestorReclaimLevel && eligible; level++) {
                    Attr anc = ancestorAt(a, level);
                    if (anc == null || anc.queue.isRoot() || anc == ancestorAt(reclaimerAttr, level)) continue;
                    Resource ancAllocated = allocations.computeIfAbsent(anc, Attr::allocated);
                    ancestorsToCharge.add(anc);
                    if (!intersection(v.resreq(), anc.deserved).isEmpty())
                        eligible = overDeserved(ancAllocated, anc.deserved, v.resreq());
                }
            }
            if (!eligible) continue;
            allocations.put(a, allocated.sub(v.resreq()));
            for (Attr anc : ancestorsToCharge)
                allocations.put(anc, allocations.get(anc).sub(v.resreq()));
            victims.add(v);
        }
        return victims;
    }

    /** Volcano's GreaterPartlyWithRelevantDimensions: above the deserved share in a dimension the task uses and the queue deserves. */
    private static boolean overDeserved(Resource allocated, Resource deserved, Resource req) {
        for (String d : req.names()) {
            if (Resource.PODS.equals(d) || deserved.get(d) == 0) continue;
            if (allocated.get(d) > deserved.get(d)) return true;
        }
        return false;
    }

    /** The non-zero dimensions two resources share (pods aside). */
    private static List<String> intersection(Resource a, Resource b) {
        List<String> out = new ArrayList<>(2);
        for (String d : a.names()) {
            if (!Resource.PODS.equals(d) && b.get(d) != 0) out.add(d);
        }
        return out;
    }

    /** The ancestor {@code depth} levels up (1: the parent), or null. */
    private static Attr ancestorAt(Attr a, int depth) {
        return depth <= 0 || a.ancestors.size() < depth ? null : a.ancestors.get(a.ancestors.size() - depth);
    }

    private boolean sharesAncestor(Attr x, Attr y) {
        for (int i = 1; i <= ancestorReclaimLevel; i++) {
            Attr ax = ancestorAt(x, i);
            if (ax == null || ax.queue.isRoot()) continue;
            for (int k = 1; k <= ancestorReclaimLevel; k++) {
                if (ancestorAt(y, k) == ax) return true;
            }
        }
        return false;
    }
}
