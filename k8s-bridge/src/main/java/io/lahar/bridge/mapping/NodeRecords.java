package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.lahar.schema.Taint;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A watched Kubernetes Node as the node record the scheduler reads. */
public final class NodeRecords {

    private NodeRecords() {}

    public static io.lahar.schema.Node node(Node node, Instant time) {
        var status = node.getStatus();
        var spec = node.getSpec();
        boolean ready = status != null
                && status.getConditions() != null
                && status.getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        return io.lahar.schema.Node.newBuilder()
                .setName(node.getMetadata().getName())
                .setAllocatable(quantities(status == null ? null : status.getAllocatable()))
                .setCapacity(quantities(status == null ? null : status.getCapacity()))
                .setLabels(
                        node.getMetadata().getLabels() == null
                                ? Map.of()
                                : new TreeMap<>(node.getMetadata().getLabels()))
                .setTaints(
                        spec == null || spec.getTaints() == null
                                ? List.of()
                                : spec.getTaints().stream()
                                        .map(t -> Taint.newBuilder()
                                                .setKey(t.getKey())
                                                .setValue(t.getValue())
                                                .setEffect(t.getEffect() == null ? "NoSchedule" : t.getEffect())
                                                .build())
                                        .toList())
                .setUnschedulable(spec != null && Boolean.TRUE.equals(spec.getUnschedulable()))
                .setReady(ready)
                .setTime(time)
                .build();
    }

    /** Kubernetes quantity strings as written ("8", "32Gi"): the scheduler parses them with core's Quantity. */
    private static Map<String, String> quantities(Map<String, Quantity> in) {
        Map<String, String> out = new LinkedHashMap<>();
        if (in != null) {
            new TreeMap<>(in).forEach((k, v) -> out.put(k, v.toString()));
        }
        return out;
    }
}
