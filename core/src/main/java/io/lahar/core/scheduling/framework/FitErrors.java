package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why one task fits no node: how many nodes failed for each reason, and for each resource it lacked,
 * what it needs against the largest amount free on any node that lacked it. Renders like Volcano's
 * FitErrors ("0/10 nodes are available: 7 Insufficient cpu, 3 node(s) were unschedulable") with
 * the numbers that tell a user what to change.
 */
public final class FitErrors {
    private int nodes;
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, long[]> need = new LinkedHashMap<>(); // dim -> {need, largest free}
    private final Map<String, String> largestOn = new LinkedHashMap<>(); // dim -> node

    /** Separates the reasons of one node when several predicates failed there (as Volcano counts each). */
    private static final char SEPARATOR = '\n';

    /** Several reasons one node failed for, as one predicate result. */
    public static String joinReasons(List<String> reasons) {
        return String.join(String.valueOf(SEPARATOR), reasons);
    }

    /** A node the task did not fit on for a non-resource reason (or several, see {@link #joinReasons}). */
    public void nodeFailed(String reason) {
        nodes++;
        int from = 0;
        for (int at = reason.indexOf(SEPARATOR); at >= 0; at = reason.indexOf(SEPARATOR, from)) {
            counts.merge(reason.substring(from, at), 1, Integer::sum);
            from = at + 1;
        }
        counts.merge(reason.substring(from), 1, Integer::sum);
    }

    /** A node that lacked some resources; {@code free} is what it has free for the task. */
    public void insufficient(SessionTask task, SessionNode node, List<String> dims, Resource free) {
        nodes++;
        for (String d : dims) {
            counts.merge(insufficientReason(d), 1, Integer::sum);
            long f = Math.max(0, free.get(d));
            long[] cur = need.get(d);
            if (cur == null || f > cur[1] || (f == cur[1] && node.name().compareTo(largestOn.get(d)) < 0)) {
                need.put(d, new long[] {task.request().get(d), f});
                largestOn.put(d, node.name());
            }
        }
    }

    /** Nodes seen. */
    public int nodes() {
        return nodes;
    }

    public Map<String, Integer> counts() {
        return java.util.Collections.unmodifiableMap(counts);
    }

    /** The reason a node lacking some of a resource counts under (a full node fails {@link SessionNode#POD_NUMBER_EXCEEDED} first). */
    public static String insufficientReason(String dim) {
        return "Insufficient " + dim;
    }

    /** {@code 0/3 nodes are available: 2 Insufficient cpu (need 4, largest free 2 on node-7), 1 node(s) were unschedulable}. */
    @Override
    public String toString() {
        if (nodes == 0) {
            return "0/0 nodes are available: the cluster has no nodes";
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> a.getValue().equals(b.getValue())
                ? a.getKey().compareTo(b.getKey())
                : Integer.compare(b.getValue(), a.getValue()));
        StringBuilder sb = new StringBuilder("0/").append(nodes).append(" nodes are available: ");
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) sb.append(", ");
            Map.Entry<String, Integer> e = entries.get(i);
            sb.append(e.getValue()).append(' ').append(e.getKey());
            for (Map.Entry<String, long[]> n : need.entrySet()) {
                if (insufficientReason(n.getKey()).equals(e.getKey())) {
                    String d = n.getKey();
                    sb.append(" (need ")
                            .append(Resource.format(d, n.getValue()[0]))
                            .append(", largest free ")
                            .append(Resource.format(d, n.getValue()[1]))
                            .append(" on ")
                            .append(largestOn.get(d))
                            .append(')');
                }
            }
        }
        return sb.toString();
    }
}
