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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's proportion plugin, flat as Volcano's is: the queues that have jobs share the cluster
 * by weight, whatever their place in the queue tree. Each queue's real capability is what the
 * other queues' guarantees leave of the cluster, plus its own guarantee, capped by its capability;
 * its deserved share is water-filled: every round each unsatisfied queue gets its weight's part of
 * what remains, capped by its real capability and by what its jobs request, and at least its
 * guarantee; a queue whose request is met, or whose share stopped growing, drops out.
 *
 * <p>Registers: queue order (higher {@code priority} first, then the smaller share of the deserved),
 * overused (allocated reached deserved), allocatable and preemptive (an open queue, a task within
 * the deserved share), reclaimable (only from queues above their deserved share), and the enqueue
 * gate (minResources + allocated + inqueue - elastic within the real capability).
 */
public final class Proportion implements Plugin {
    public static final String NAME = "proportion";

    /** One queue with jobs, as Volcano's queueAttr. */
    private static final class Attr {
        final SessionQueue queue;
        Resource deserved = Resource.EMPTY;
        Resource request = Resource.EMPTY;
        Resource inqueue = Resource.EMPTY;
        Resource elastic = Resource.EMPTY;
        Resource guarantee;
        Resource realCapability;

        Attr(SessionQueue queue) {
            this.queue = queue;
        }
    }

    private final Map<SessionQueue, Attr> attrs = new LinkedHashMap<>();

    public Proportion(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        Resource total = ssn.totalResource();
        Resource totalGuarantee = Resource.EMPTY;
        for (SessionQueue q : ssn.queues().values())
            totalGuarantee = totalGuarantee.add(q.info().guarantee().withPods(0));
        Resource free = total.subClamped(totalGuarantee);
        for (SessionJob j : ssn.jobs()) {
            SessionQueue q = j.queue();
            if (q == null || !j.problems().isEmpty()) continue;
            Attr a = attrs.computeIfAbsent(q, k -> {
                Attr n = new Attr(k);
                n.guarantee = k.info().guarantee().withPods(0);
                n.realCapability = free.add(n.guarantee)
                        .minWithDimension(k.info().capability().withPods(0));
                return n;
            });
            for (SessionTask t : j.tasks()) {
                TaskStatus s = t.status();
                if (s == TaskStatus.Pending || s.isAllocated()) a.request = a.request.add(t.resreq());
            }
            a.inqueue = a.inqueue.add(j.inqueueReservation());
            // What a job holds beyond its minResources could be given back (Volcano's elastic resources).
            a.elastic = a.elastic.add(
                    j.allocated().withPods(0).subClamped(j.info().minResources().withPods(0)));
        }
        waterFill(total);
        for (Attr a : attrs.values()) a.queue.enforce(NAME, a.deserved, a.realCapability);

        ssn.addQueueOrderFn(NAME, (l, r) -> {
            int c = Integer.compare(r.info().priority(), l.info().priority());
            return c != 0 ? c : Double.compare(share(l), share(r));
        });
        ssn.addOverusedFn(NAME, this::overused);
        ssn.addAllocatableFn(NAME, this::allocatable);
        ssn.addPreemptiveFn(NAME, this::allocatable);
        ssn.addReclaimableFn(NAME, (reclaimer, reclaimees) -> {
            Map<SessionQueue, Resource> allocations = new HashMap<>();
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask t : reclaimees) {
                Attr a = attrs.get(t.job().queue());
                if (a == null) continue;
                Resource allocated = allocations.computeIfAbsent(a.queue, SessionQueue::allocated);
                if (!allocated.withPods(0).lessEqual(a.deserved)) {
                    allocations.put(a.queue, allocated.sub(t.resreq()));
                    victims.add(t);
                }
            }
            return victims;
        });
        ssn.addJobEnqueueableFn(NAME, this::enqueueable);
        ssn.addJobEnqueuedFn(NAME, j -> {
            Attr a = attrs.get(j.queue());
            if (a != null) a.inqueue = a.inqueue.add(j.info().minResources().withPods(0));
        });
    }

    /** Volcano's rounds: each unsatisfied queue gets its weight's part of what remains. */
    private void waterFill(Resource total) {
        Resource remaining = total;
        Set<Attr> meet = new HashSet<>();
        for (int round = 0; round < attrs.size() + 1024; round++) {
            long totalWeight = 0;
            for (Attr a : attrs.values())
                if (!meet.contains(a)) totalWeight += a.queue.info().weight();
            if (totalWeight == 0) break;
            Resource increased = Resource.EMPTY;
            Resource decreased = Resource.EMPTY;
            for (Attr a : attrs.values()) {
                if (meet.contains(a)) continue;
                Resource old = a.deserved;
                Resource d = old.add(remaining.multiply((double) a.queue.info().weight() / totalWeight))
                        .minWithDimension(a.realCapability)
                        .min(a.request)
                        .max(a.guarantee);
                a.deserved = d;
                if (a.request.lessEqual(d) || d.equals(old)) meet.add(a);
                increased = increased.add(d.subClamped(old));
                decreased = decreased.add(old.subClamped(d));
            }
            Resource next = remaining.add(decreased).subClamped(increased);
            if (next.withPods(0).isEmpty() || next.equals(remaining)) break;
            remaining = next;
        }
    }

    /** The queue's dominant share of its deserved share (its largest fraction of any resource it deserves). */
    double share(SessionQueue q) {
        Attr a = attrs.get(q);
        if (a == null) return 0;
        Resource alloc = q.allocated().withPods(0);
        double s = 0;
        for (String d : a.deserved.names()) s = Math.max(s, Drf.fraction(alloc.get(d), a.deserved.get(d)));
        return s;
    }

    private String overused(SessionQueue q) {
        Attr a = attrs.get(q);
        if (a == null) return null;
        Resource alloc = q.allocated().withPods(0);
        if (!a.deserved.lessEqual(alloc)) return null;
        return "queue \"" + q.name() + "\" is using its whole deserved share (allocated " + alloc + ", deserved "
                + (a.deserved.isEmpty() ? "nothing" : a.deserved.toString()) + ")";
    }

    private String allocatable(SessionQueue q, SessionTask t) {
        if (!q.isOpen()) return "queue \"" + q.name() + "\" is " + q.state() + " and takes no new work";
        Attr a = attrs.get(q);
        if (a == null) return null;
        return Queues.exceeds(q, "deserved share", q.allocated(), t.resreq(), a.deserved);
    }

    private Vote enqueueable(SessionJob j) {
        SessionQueue q = j.queue();
        if (!q.isOpen()) return Vote.reject("queue \"" + q.name() + "\" is " + q.state() + " and takes no new work");
        Attr a = attrs.get(q);
        Resource min = j.info().minResources().withPods(0);
        if (a == null || min.isEmpty()) return Vote.PERMIT;
        String over = Queues.overCapability(q, min, q.allocated().withPods(0), a.inqueue, a.elastic, a.realCapability);
        return over == null ? Vote.PERMIT : Vote.reject(over);
    }
}
