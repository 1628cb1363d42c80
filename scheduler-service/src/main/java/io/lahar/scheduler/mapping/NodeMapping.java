package io.lahar.scheduler.mapping;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeImage;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.Taint;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.schema.Node;
import java.util.ArrayList;
import java.util.List;

/** {@code lahar.nodes} record to the scheduler's {@link NodeInfo}. */
public final class NodeMapping {
    private NodeMapping() {}

    /**
     * A node that is not Ready is unschedulable, as Volcano's predicates treat a NotReady node.
     *
     * @param otherUsed what pods outside the snapshot's jobs hold on the node
     * @throws MappingException naming every bad quantity or taint
     */
    public static NodeInfo toNodeInfo(Node node, Resource otherUsed, int otherPods) {
        List<Problem> problems = new ArrayList<>();
        Resource allocatable = Quantities.parse(node.getAllocatable(), "allocatable", problems);
        List<Taint> taints = new ArrayList<>();
        for (int i = 0; i < node.getTaints().size(); i++) {
            io.lahar.schema.Taint t = node.getTaints().get(i);
            TaintEffect effect = effect(Strings.of(t.getEffect()));
            if (effect == null) {
                problems.add(new Problem(
                        "taints[" + i + "].effect",
                        "unknown effect \"" + t.getEffect() + "\" (NoSchedule, PreferNoSchedule or NoExecute)"));
            } else {
                taints.add(new Taint(Strings.of(t.getKey()), Strings.of(t.getValue()), effect));
            }
        }
        List<NodeImage> images = new ArrayList<>(node.getImages().size());
        for (int i = 0; i < node.getImages().size(); i++) {
            io.lahar.schema.NodeImage im = node.getImages().get(i);
            if (im.getSizeBytes() < 0)
                problems.add(
                        new Problem("images[" + i + "].sizeBytes", "must not be negative, got " + im.getSizeBytes()));
            else
                images.add(new NodeImage(
                        im.getNames().stream().map(CharSequence::toString).toList(), im.getSizeBytes()));
        }
        MappingException.throwIfAny(problems);
        return new NodeInfo(
                node.getName().toString(),
                allocatable,
                otherUsed,
                otherPods,
                Strings.map(node.getLabels()),
                taints,
                node.getUnschedulable() || !node.getReady(),
                images,
                List.of());
    }

    /** Checks a node record when it arrives, so a bad one is dead-lettered rather than kept. */
    public static void check(Node node) {
        toNodeInfo(node, Resource.EMPTY, 0);
    }

    static TaintEffect effect(String s) {
        if (s == null) return null;
        for (TaintEffect e : TaintEffect.values()) {
            if (e.name().equals(s)) return e;
        }
        return null;
    }
}
