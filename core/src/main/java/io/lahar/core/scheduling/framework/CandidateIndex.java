package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Finds the best node for a task without scanning every node, so placing P pods on N nodes costs
 * about P log N instead of P times N.
 *
 * <p>Tasks with the same request and the same placement constraints form a class: the predicates
 * give the same answer for every task of a class on a node, and the node-order scores depend only
 * on the node's state and the request. So each class keeps a heap of its feasible nodes by score
 * (ties to the first name). When a node changes (a task placed, evicted or undone there) it is
 * re-scored at once in every class it belongs to, and its older entries are dropped when they
 * surface; a node that does not fit a class is dropped from its heap until it changes again. The
 * answer is exactly the one a full scan gives (a property test holds the two together).
 *
 * <p>This holds as long as the session's stateless predicates look only at the task's constraints
 * and the node's labels, taints and schedulability, and its node-order functions only at the node's
 * resources (and images) and the task's request, as the built-in plugins do;
 * {@code configurations: [{name: allocate, arguments: {candidateIndex: false}}]} turns it off for
 * plugins that do not. The predicates that depend on other pods (inter-pod affinity, topology
 * spread, host ports) are checked on the way down the heap: a node that fails them is set aside
 * for this answer only and put back, since other tasks of the class may go there. When more than
 * {@link #MAX_ASIDE} better nodes fail them, the index leaves the answer to a full scan.
 */
public final class CandidateIndex {

    /** The classes kept at once; the least recently used is dropped (and rebuilt if needed again). */
    static final int MAX_CLASSES = 64;
    /** How many better nodes failing a task's inter-pod predicates are stepped over before a full scan decides. */
    static final int MAX_ASIDE = 256;

    private record TaskClass(Resource request, Map<String, String> selector, NodeAffinity affinity,
                             List<Toleration> tolerations, List<String> images) {
    }

    /** The index's answer: a node, none fits ({@code node} null), or undecided (leave it to a full scan). */
    public record Answer(SessionNode node, boolean decided) {
        static final Answer NONE = new Answer(null, true);
        static final Answer UNDECIDED = new Answer(null, false);
    }

    private record Entry(double score, int node, long version) {
    }

    private final class ClassHeap {
        final PriorityQueue<Entry> heap = new PriorityQueue<>((a, b) -> {
            int c = Double.compare(b.score, a.score);
            return c != 0 ? c : Integer.compare(a.node, b.node);
        });
        final SessionTask representative;
        final int feasible;
        boolean dead;

        ClassHeap(SessionTask task) {
            this.representative = task;
            // Scored first and heaped at once: pushing one by one before `feasible` is known would
            // compact the heap on every push past 1024 nodes (quadratic in the node count).
            List<Entry> entries = new ArrayList<>();
            for (SessionNode n : nodes) {
                if (ssn.predicate(task, n) == null) {
                    members.get(n.index()).add(this);
                    entries.add(new Entry(ssn.nodeScore(task, n), n.index(), version[n.index()]));
                }
            }
            feasible = entries.size();
            heap.addAll(entries);
        }

        void push(int node) {
            heap.add(new Entry(ssn.nodeScore(representative, nodes.get(node)), node, version[node]));
            if (heap.size() > 4 * feasible + 1024) {
                compact();
            }
        }

        /** Drops superseded entries, so a heap holds about one entry per feasible node. */
        private void compact() {
            List<Entry> live = new ArrayList<>(feasible);
            for (Entry e : heap) {
                if (e.version == version[e.node]) live.add(e);
            }
            heap.clear();
            heap.addAll(live);
        }
    }

    private final Session ssn;
    private final List<SessionNode> nodes;
    private final long[] version;
    private final List<List<ClassHeap>> members;
    private final Map<TaskClass, ClassHeap> heaps = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TaskClass, ClassHeap> eldest) {
            if (size() > MAX_CLASSES) {
                eldest.getValue().dead = true;
                if (++deadSinceSweep >= MAX_CLASSES) {
                    sweep(); // bound what dead classes pin on nodes that never change
                }
                return true;
            }
            return false;
        }
    };

    private int deadSinceSweep;

    private void sweep() {
        for (List<ClassHeap> in : members) in.removeIf(h -> h.dead);
        deadSinceSweep = 0;
    }

    CandidateIndex(Session ssn) {
        this.ssn = ssn;
        this.nodes = ssn.nodes();
        this.version = new long[nodes.size()];
        this.members = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) members.add(new ArrayList<>());
    }

    /** A node's resources changed: re-score it in every class it may host. */
    void nodeChanged(int node) {
        version[node]++;
        List<ClassHeap> in = members.get(node);
        boolean anyDead = false;
        for (ClassHeap h : in) {
            if (h.dead) anyDead = true;
            else h.push(node);
        }
        if (anyDead) in.removeIf(h -> h.dead);
    }

    /** The node a full scan would choose among those whose idle resources fit the task, or null. */
    public SessionNode best(SessionTask task) {
        return best(task, null).node();
    }

    /**
     * The node a full scan would choose among those whose idle resources fit the task and that pass
     * {@code check} (the task's inter-pod predicates, null when none).
     */
    public Answer best(SessionTask task, NodeCheck check) {
        TaskClass key = new TaskClass(task.request(), task.info().nodeSelector(), task.info().affinity(),
                task.info().tolerations(), task.info().spec().images());
        ClassHeap h = heaps.get(key);
        if (h == null) {
            h = new ClassHeap(task);
            heaps.put(key, h);
        }
        Resource req = task.request();
        List<Entry> aside = null;
        Answer answer;
        while (true) {
            Entry e = h.heap.peek();
            if (e == null) {
                answer = Answer.NONE;
                break;
            }
            if (e.version != version[e.node]) {
                h.heap.poll(); // superseded: the node was re-scored when it changed
                continue;
            }
            SessionNode n = nodes.get(e.node);
            if (!req.lessEqual(n.idle())) {
                h.heap.poll(); // does not fit now; comes back when the node changes
                continue;
            }
            if (check == null || check.check(n) == null) {
                answer = new Answer(n, true);
                break;
            }
            h.heap.poll();
            if (aside == null) aside = new ArrayList<>();
            aside.add(e);
            if (aside.size() > MAX_ASIDE) {
                answer = Answer.UNDECIDED;
                break;
            }
        }
        if (aside != null) h.heap.addAll(aside);
        return answer;
    }
}
