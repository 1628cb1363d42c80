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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's proportion plugin, over the queue hierarchy: each parent's deserved share (root: the
 * whole cluster) is divided among its children — first their guarantees, then the rest by weight,
 * water-filling so a child never deserves more than it requests or its capability allows, and what
 * it cannot use goes to its siblings.
 *
 * <p>Registers: queue order (smallest share first), overused (allocated reached deserved),
 * allocatable (a task must fit in the deserved share), reclaimable (only from queues above their
 * deserved share), and the real-capability gate of enqueue.
 */
public final class Proportion implements Plugin {
    public static final String NAME = "proportion";

    /** Per queue: what its jobs ask for, its effective capability, and what admitted jobs reserve. */
    private final Map<SessionQueue, Resource> request = new HashMap<>();
    private final Map<SessionQueue, Resource> realCapability = new HashMap<>();
    private final Map<SessionQueue, Resource> inqueue = new HashMap<>();
    private final Map<SessionQueue, Resource> elastic = new HashMap<>();

    public Proportion(Arguments args) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        for (SessionJob j : ssn.jobs()) {
            SessionQueue q = j.queue();
            if (q == null || !j.problems().isEmpty()) continue;
            Resource r = Resource.EMPTY;
            for (SessionTask t : j.tasks()) {
                TaskStatus s = t.status();
                if (s == TaskStatus.Pending || s == TaskStatus.Pipelined || s.isAllocated()) r = r.add(t.resreq());
            }
            for (SessionQueue a = q; a != null; a = a.parent()) request.merge(a, r, Resource::add);
            Resource min = j.info().minResources().withPods(0);
            Resource waiting = j.inqueueReservation();
            // What a job holds beyond its minResources could be given back, so it does not count
            // against the queue at enqueue (Volcano's elastic resources).
            Resource beyondMin = j.allocated().withPods(0).subClamped(min);
            for (SessionQueue a = q; a != null; a = a.parent()) {
                if (!waiting.isEmpty()) inqueue.merge(a, waiting, Resource::add);
                if (!beyondMin.isEmpty()) elastic.merge(a, beyondMin, Resource::add);
            }
        }
        SessionQueue root = ssn.rootQueue();
        root.setDeserved(ssn.totalResource());
        realCapability.put(root, ssn.totalResource().minWithDimension(root.info().capability().withPods(0)));
        divide(root);

        ssn.addQueueOrderFn(NAME, (l, r) -> Double.compare(share(l), share(r)));
        ssn.addOverusedFn(NAME, this::overused);
        ssn.addAllocatableFn(NAME, this::allocatable);
        ssn.addReclaimableFn(NAME, (reclaimer, reclaimees) -> {
            Map<SessionQueue, Resource> allocations = new HashMap<>();
            List<SessionTask> victims = new ArrayList<>();
            for (SessionTask t : reclaimees) {
                SessionQueue q = t.job().queue();
                Resource allocated = allocations.computeIfAbsent(q, SessionQueue::allocated);
                if (!allocated.withPods(0).lessEqual(deserved(q))) {
                    allocations.put(q, allocated.sub(t.resreq()));
                    victims.add(t);
                }
            }
            return victims;
        });
        ssn.addJobEnqueueableFn(NAME, this::enqueueable);
        ssn.addJobEnqueuedFn(NAME, j -> {
            Resource min = j.info().minResources().withPods(0);
            for (SessionQueue a = j.queue(); a != null; a = a.parent()) inqueue.merge(a, min, Resource::add);
        });
    }

    private Resource deserved(SessionQueue q) {
        return q.deserved() == null ? Resource.EMPTY : q.deserved();
    }

    /** Divides a queue's deserved share among its children, then recurses. */
    private void divide(SessionQueue parent) {
        List<SessionQueue> children = parent.children();
        if (children.isEmpty()) return;
        Resource available = deserved(parent);
        Resource totalGuarantee = Resource.EMPTY;
        for (SessionQueue c : children) totalGuarantee = totalGuarantee.add(c.info().guarantee().withPods(0));
        Map<SessionQueue, Resource> deserved = new HashMap<>();
        Resource remaining = available;
        for (SessionQueue c : children) {
            Resource req = request.getOrDefault(c, Resource.EMPTY);
            Resource cap = c.info().guarantee().withPods(0).add(available.subClamped(totalGuarantee))
                    .minWithDimension(c.info().capability().withPods(0));
            realCapability.put(c, cap);
            Resource start = c.info().guarantee().withPods(0).min(req);
            deserved.put(c, start);
            remaining = remaining.sub(start);
        }
        remaining = remaining.max(Resource.EMPTY);
        Set<SessionQueue> meet = new HashSet<>();
        for (int round = 0; round <= children.size() + 64; round++) {
            long totalWeight = 0;
            for (SessionQueue c : children) if (!meet.contains(c)) totalWeight += c.info().weight();
            if (totalWeight == 0 || isNothing(remaining)) break;
            Resource increased = Resource.EMPTY;
            for (SessionQueue c : children) {
                if (meet.contains(c)) continue;
                Resource old = deserved.get(c);
                Resource req = request.getOrDefault(c, Resource.EMPTY);
                Resource d = old.add(remaining.multiply((double) c.info().weight() / totalWeight))
                        .min(realCapability.get(c)).min(req);
                deserved.put(c, d);
                increased = increased.add(d.sub(old));
                if (req.lessEqual(d) || saturated(d, req, realCapability.get(c))) meet.add(c);
            }
            Resource next = remaining.sub(increased).max(Resource.EMPTY);
            if (next.equals(remaining)) break; // nothing more can be handed out
            remaining = next;
        }
        for (SessionQueue c : children) {
            c.setDeserved(deserved.get(c));
            divide(c);
        }
    }

    private static boolean isNothing(Resource r) {
        return r.withPods(0).isEmpty();
    }

    /** Every dimension it still wants more of is at its capability. */
    private static boolean saturated(Resource d, Resource req, Resource cap) {
        for (String dim : req.exceeding(d)) {
            if (d.get(dim) < cap.get(dim)) return false;
        }
        return true;
    }

    /** The queue's dominant share: its largest fraction of its deserved share of any resource. */
    double share(SessionQueue q) {
        Resource alloc = q.allocated().withPods(0);
        Resource des = deserved(q);
        double s = 0;
        for (String d : Resource.shareNames(alloc, des)) s = Math.max(s, Drf.fraction(alloc.get(d), des.get(d)));
        return s;
    }

    private String overused(SessionQueue q) {
        Resource alloc = q.allocated().withPods(0);
        Resource des = deserved(q);
        if (!des.lessEqual(alloc)) return null;
        return "queue \"" + q.name() + "\" is using its whole deserved share (allocated " + alloc + ", deserved "
                + (des.isEmpty() ? "nothing" : des.toString()) + ")";
    }

    private String allocatable(SessionQueue q, SessionTask t) {
        Resource req = t.resreq();
        Resource future = q.allocated().add(req);
        Resource des = deserved(q);
        List<String> over = new ArrayList<>();
        for (String d : req.names()) {
            if (future.get(d) > des.get(d)) over.add(d);
        }
        if (over.isEmpty()) return null;
        StringBuilder sb = new StringBuilder("queue \"").append(q.name()).append("\" would exceed its deserved share: ");
        for (int i = 0; i < over.size(); i++) {
            String d = over.get(i);
            if (i > 0) sb.append(", ");
            sb.append(d).append(" allocated ").append(Resource.format(d, q.allocated().get(d)))
                    .append(" + request ").append(Resource.format(d, req.get(d)))
                    .append(" > deserved ").append(Resource.format(d, des.get(d)));
        }
        return sb.toString();
    }

    /**
     * Volcano's proportion enqueue gate: minResources + allocated + inqueue - elastic must stay
     * within the queue's real capability — its capability, bounded by its guarantee plus what the
     * other queues' guarantees leave of the cluster (of its parent's share, in a hierarchy) — at
     * the queue and at each ancestor. So even a queue without a capability admits no more than the
     * cluster holds.
     */
    private Vote enqueueable(SessionJob j) {
        Resource min = j.info().minResources().withPods(0);
        if (min.isEmpty()) return Vote.PERMIT;
        for (SessionQueue a = j.queue(); a != null; a = a.parent()) {
            Resource cap = realCapability.getOrDefault(a, a.info().capability()).withPods(0);
            Resource in = inqueue.getOrDefault(a, Resource.EMPTY);
            Resource el = elastic.getOrDefault(a, Resource.EMPTY);
            Resource wanted = min.add(a.allocated().withPods(0)).add(in).sub(el);
            List<String> over = wanted.exceedingWithDimension(cap);
            if (!over.isEmpty()) {
                String d = over.get(0);
                return Vote.reject("queue \"" + a.name() + "\" over its capability: " + d + " allocated "
                        + Resource.format(d, a.allocated().get(d)) + " + inqueue " + Resource.format(d, in.get(d))
                        + " + minResources " + Resource.format(d, min.get(d))
                        + (el.get(d) > 0 ? " - elastic " + Resource.format(d, el.get(d)) : "")
                        + " > capability " + Resource.format(d, cap.get(d)));
            }
        }
        return Vote.PERMIT;
    }
}
