package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * resources, images and labels and the task's request and revocable zone, as the built-in plugins do;
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

    private record TaskClass(
            Resource request,
            Map<String, String> selector,
            NodeAffinity affinity,
            List<Toleration> tolerations,
            List<String> images,
            String revocableZone) {}

    /** The index's answer: a node, none fits ({@code node} null), or undecided (leave it to a full scan). */
    public record Answer(SessionNode node, boolean decided) {
        static final Answer NONE = new Answer(null, true);
        static final Answer UNDECIDED = new Answer(null, false);
    }

    private record Entry(double score, int node, long version) {}

    /**
     * A max-heap of (score, node, version) by score, ties to the lower node index, in parallel
     * arrays: the index's heaps take a push for every node change in every class, and entries as
     * objects would make each comparison a pointer chase.
     */
    static final class ScoreHeap {
        private double[] score = new double[16];
        private int[] node = new int[16];
        private long[] version = new long[16];
        private int size;

        int size() {
            return size;
        }

        double topScore() {
            return score[0];
        }

        int topNode() {
            return node[0];
        }

        long topVersion() {
            return version[0];
        }

        /** Before {@code j}: a higher score, or the same score and a lower node. */
        private boolean before(int i, int j) {
            return score[i] > score[j] || (score[i] == score[j] && node[i] < node[j]);
        }

        void add(double s, int n, long v) {
            if (size == score.length) {
                int cap = size * 2;
                score = Arrays.copyOf(score, cap);
                node = Arrays.copyOf(node, cap);
                version = Arrays.copyOf(version, cap);
            }
            set(size, s, n, v);
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!before(i, parent)) break;
                swap(i, parent);
                i = parent;
            }
        }

        void poll() {
            size--;
            if (size == 0) return;
            set(0, score[size], node[size], version[size]);
            siftDown(0);
        }

        /** Keeps only the entries whose version is still their node's ({@code current}), then restores the heap order. */
        void retain(long[] current) {
            int w = 0;
            for (int r = 0; r < size; r++) {
                if (version[r] == current[node[r]]) set(w++, score[r], node[r], version[r]);
            }
            size = w;
            for (int i = (size >>> 1) - 1; i >= 0; i--) siftDown(i);
        }

        private void siftDown(int i) {
            while (true) {
                int l = 2 * i + 1;
                if (l >= size) return;
                int c = l + 1 < size && before(l + 1, l) ? l + 1 : l;
                if (!before(c, i)) return;
                swap(i, c);
                i = c;
            }
        }

        private void set(int i, double s, int n, long v) {
            score[i] = s;
            node[i] = n;
            version[i] = v;
        }

        private void swap(int i, int j) {
            double s = score[i];
            int n = node[i];
            long v = version[i];
            set(i, score[j], node[j], version[j]);
            set(j, s, n, v);
        }
    }

    private final class ClassHeap {
        final ScoreHeap heap = new ScoreHeap();
        final SessionTask representative;
        final int feasible;
        boolean dead;

        ClassHeap(SessionTask task) {
            this.representative = task;
            int count = 0;
            for (SessionNode n : nodes) {
                if (ssn.predicate(task, n) == null) {
                    members.get(n.index()).add(this);
                    heap.add(ssn.nodeScore(task, n), n.index(), version[n.index()]);
                    count++;
                }
            }
            feasible = count;
        }

        void push(int node) {
            heap.add(ssn.nodeScore(representative, nodes.get(node)), node, version[node]);
            if (heap.size() > 4 * feasible + 1024) {
                heap.retain(version); // drops superseded entries, so a heap holds about one entry per feasible node
            }
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

    /** The node a full scan would choose among those with a pod slot whose idle resources fit the task, or null. */
    public SessionNode best(SessionTask task) {
        return best(task, null).node();
    }

    /**
     * The node a full scan would choose among those with a pod slot whose idle resources fit the
     * task and that pass {@code check} (the task's inter-pod predicates, null when none).
     */
    public Answer best(SessionTask task, NodeCheck check) {
        TaskClass key = new TaskClass(
                task.request(),
                task.info().nodeSelector(),
                task.info().affinity(),
                task.info().tolerations(),
                task.info().spec().images(),
                task.info().revocableZone());
        ClassHeap h = heaps.get(key);
        if (h == null) {
            h = new ClassHeap(task);
            heaps.put(key, h);
        }
        Resource req = task.request();
        ScoreHeap heap = h.heap;
        List<Entry> aside = null;
        Answer answer;
        while (true) {
            if (heap.size() == 0) {
                answer = Answer.NONE;
                break;
            }
            int node = heap.topNode();
            if (heap.topVersion() != version[node]) {
                heap.poll(); // superseded: the node was re-scored when it changed
                continue;
            }
            SessionNode n = nodes.get(node);
            if (n.podsFull() || !req.lessEqual(n.idle())) {
                heap.poll(); // does not fit now; comes back when the node changes
                continue;
            }
            if (check == null || check.check(n) == null) {
                answer = new Answer(n, true);
                break;
            }
            if (aside == null) aside = new ArrayList<>();
            aside.add(new Entry(heap.topScore(), node, heap.topVersion()));
            heap.poll();
            if (aside.size() > MAX_ASIDE) {
                answer = Answer.UNDECIDED;
                break;
            }
        }
        if (aside != null) for (Entry e : aside) heap.add(e.score, e.node, e.version);
        return answer;
    }
}
