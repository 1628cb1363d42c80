package io.lahar.core.admission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Cycle detection over "node -> the nodes it depends on", for task dependsOn and JobFlow flows. */
final class Graphs {

    private Graphs() {}

    /**
     * A cycle in running order, its first node repeated at the end (e.g. [b, c, d, b] when b
     * depends on d, d on c and c on b), or empty for a DAG. Nodes are visited in map order, so the answer is deterministic.
     */
    static Optional<List<String>> findCycle(Map<String, List<String>> edges) {
        Map<String, Integer> state = new HashMap<>(); // 1 = on the stack, 2 = done
        for (String start : edges.keySet()) {
            List<String> stack = new ArrayList<>();
            Optional<List<String>> c = visit(start, edges, state, stack);
            if (c.isPresent()) {
                return c;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> visit(
            String node, Map<String, List<String>> edges, Map<String, Integer> state, List<String> stack) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return Optional.empty();
        }
        if (s != null && s == 1) {
            List<String> cycle = new ArrayList<>(stack.subList(stack.indexOf(node), stack.size()));
            cycle.add(node);
            // Edges point at dependencies; reversed, the cycle reads in running order (a -> b: a first).
            java.util.Collections.reverse(cycle);
            return Optional.of(cycle);
        }
        state.put(node, 1);
        stack.add(node);
        for (String next : edges.getOrDefault(node, List.of())) {
            Optional<List<String>> c = visit(next, edges, state, stack);
            if (c.isPresent()) {
                return c;
            }
        }
        stack.remove(stack.size() - 1);
        state.put(node, 2);
        return Optional.empty();
    }
}
