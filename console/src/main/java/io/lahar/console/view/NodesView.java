package io.lahar.console.view;

import io.lahar.schema.Node;
import io.lahar.schema.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Nodes as {@code lahar.nodes} reports them, with what the console's pods hold on each: a pod
 * bound to the node and not finished holds its task's requests (from the job's admitted manifest).
 */
public final class NodesView {

    private final Map<String, Node> nodes = new HashMap<>();

    /** A pod on a node: its job's key, name and phase. */
    public record NodePod(String job, String pod, String phase) {}

    /**
     * One node. {@code allocated} sums the requests of the pods that hold it; {@code pods} are those
     * pods. A node no record names but pods are bound to appears with {@code known} false.
     */
    public record NodeRow(
            String name,
            boolean known,
            boolean ready,
            boolean unschedulable,
            List<String> taints,
            Map<String, String> labels,
            Map<String, Amounts.Amount> allocatable,
            Map<String, Amounts.Amount> capacity,
            Map<String, Amounts.Amount> allocated,
            List<NodePod> pods,
            Long updated) {}

    void put(String name, Node node) {
        nodes.put(name, node);
    }

    void remove(String name) {
        nodes.remove(name);
    }

    int size() {
        return nodes.size();
    }

    List<NodeRow> rows(PodsView pods, JobsView jobs) {
        Map<String, Map<String, Double>> allocated = new HashMap<>();
        Map<String, List<NodePod>> podsOn = new HashMap<>();
        for (var job : pods.all()) {
            JobsView.Entry entry = jobs.get(job.getKey());
            String uid = entry == null || entry.record() == null
                    ? null
                    : entry.record().getUid();
            for (PodsView.PodRow p : job.getValue().values()) {
                if (!p.holdsNode() || (uid != null && p.jobUid() != null && !uid.equals(p.jobUid()))) {
                    continue;
                }
                podsOn.computeIfAbsent(p.node(), n -> new ArrayList<>())
                        .add(new NodePod(job.getKey(), p.pod(), p.phase()));
                if (entry != null) {
                    Amounts.add(
                            allocated.computeIfAbsent(p.node(), n -> new HashMap<>()),
                            entry.facts().requestsOf(p.task()));
                }
            }
        }
        TreeMap<String, NodeRow> out = new TreeMap<>();
        nodes.forEach((name, n) -> out.put(name, row(name, n, allocated.get(name), podsOn.get(name))));
        podsOn.keySet().stream()
                .filter(name -> !nodes.containsKey(name))
                .forEach(name -> out.put(name, row(name, null, allocated.get(name), podsOn.get(name))));
        return List.copyOf(out.values());
    }

    private static NodeRow row(String name, Node n, Map<String, Double> allocated, List<NodePod> pods) {
        Map<String, Amounts.Amount> used = new TreeMap<>();
        if (allocated != null) {
            allocated.forEach((r, v) -> used.put(r, Amounts.amount(r, v)));
        }
        List<NodePod> on = pods == null
                ? List.of()
                : pods.stream()
                        .sorted(java.util.Comparator.comparing(NodePod::job).thenComparing(NodePod::pod))
                        .toList();
        if (n == null) {
            return new NodeRow(name, false, false, false, List.of(), Map.of(), Map.of(), Map.of(), used, on, null);
        }
        List<String> taints = new ArrayList<>();
        for (Taint t : n.getTaints()) {
            taints.add(t.getKey() + (t.getValue() == null ? "" : "=" + t.getValue()) + ":" + t.getEffect());
        }
        return new NodeRow(
                name,
                true,
                n.getReady(),
                n.getUnschedulable(),
                taints,
                new TreeMap<>(n.getLabels()),
                Amounts.of(n.getAllocatable()),
                Amounts.of(n.getCapacity()),
                used,
                on,
                n.getTime().toEpochMilli());
    }
}
