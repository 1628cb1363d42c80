package io.lahar.core.scheduling.api;

import io.lahar.core.resource.Resource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A node as the scheduler sees it at the snapshot.
 *
 * @param allocatable what the node offers pods (pods dimension = max pod count; 0 means Kubernetes'
 *                    default of 110)
 * @param otherUsed   resources held by pods that are <em>not</em> tasks of a job in the snapshot
 *                    (daemon sets, foreign workloads); the snapshot's own bound tasks are added by
 *                    the session, so do not count them here
 * @param otherPods   how many such foreign pods run on the node
 * @param labels      the node's labels; {@code kubernetes.io/hostname} is the node's name when not
 *                    given, as the kubelet registers every node
 * @param images      the container images on the node (image locality)
 * @param foreignPods the specs of those foreign pods that are known (for inter-pod affinity,
 *                    topology spread and host ports); may list fewer than {@code otherPods}
 */
public record NodeInfo(
        String name,
        Resource allocatable,
        Resource otherUsed,
        int otherPods,
        Map<String, String> labels,
        List<Taint> taints,
        boolean unschedulable,
        List<NodeImage> images,
        List<ForeignPod> foreignPods) {

    /** Kubernetes' default maximum of pods per node. */
    public static final long DEFAULT_MAX_PODS = 110;
    /** The well-known label every node carries with its own name. */
    public static final String HOSTNAME = "kubernetes.io/hostname";

    public NodeInfo {
        Objects.requireNonNull(name, "name");
        allocatable = allocatable == null ? Resource.EMPTY : allocatable;
        if (allocatable.pods() == 0) {
            allocatable = allocatable.withPods(DEFAULT_MAX_PODS);
        }
        otherUsed = otherUsed == null ? Resource.EMPTY : otherUsed.withPods(0);
        labels = labels == null ? Map.of() : labels;
        if (!labels.containsKey(HOSTNAME)) {
            Map<String, String> withHost = new TreeMap<>(labels);
            withHost.put(HOSTNAME, name);
            labels = withHost;
        }
        labels = Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
        images = images == null ? List.of() : List.copyOf(images);
        foreignPods = foreignPods == null ? List.of() : List.copyOf(foreignPods);
    }

    public NodeInfo(
            String name,
            Resource allocatable,
            Resource otherUsed,
            int otherPods,
            Map<String, String> labels,
            List<Taint> taints,
            boolean unschedulable) {
        this(name, allocatable, otherUsed, otherPods, labels, taints, unschedulable, List.of(), List.of());
    }

    /**
     * Volcano's RevocableZone of a node: its {@code volcano.sh/revocable-zone} label, the zone whose
     * time window (the tdm plugin's) lends it to revocable pods; "" for a node of no zone.
     */
    public String revocableZone() {
        return labels.getOrDefault(io.lahar.core.job.plugins.PodLabels.REVOCABLE_ZONE, "");
    }

    /** This node with more foreign pods on it: their usage and, when known, their specs. */
    public NodeInfo withForeign(Resource used, int pods, List<ForeignPod> specs) {
        List<ForeignPod> all = new java.util.ArrayList<>(foreignPods);
        all.addAll(specs);
        return new NodeInfo(
                name, allocatable, otherUsed.add(used), otherPods + pods, labels, taints, unschedulable, images, all);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds a node from plain values; quantities use Kubernetes notation. */
    public static final class Builder {
        private final String name;
        private Resource allocatable = Resource.EMPTY;
        private Resource otherUsed = Resource.EMPTY;
        private int otherPods;
        private final Map<String, String> labels = new TreeMap<>();
        private final List<Taint> taints = new java.util.ArrayList<>();
        private boolean unschedulable;
        private final List<NodeImage> images = new java.util.ArrayList<>();
        private final List<ForeignPod> foreignPods = new java.util.ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** {@code allocatable(Map.of("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "4"))}. */
        public Builder allocatable(Map<String, ?> quantities) {
            this.allocatable = Resource.parse(quantities);
            return this;
        }

        public Builder allocatable(Resource r) {
            this.allocatable = r;
            return this;
        }

        public Builder otherUsed(Resource r, int pods) {
            this.otherUsed = r;
            this.otherPods = pods;
            return this;
        }

        public Builder label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public Builder taint(String key, String value, TaintEffect effect) {
            taints.add(new Taint(key, value, effect));
            return this;
        }

        public Builder unschedulable(boolean u) {
            this.unschedulable = u;
            return this;
        }

        public Builder image(long sizeBytes, String... names) {
            images.add(new NodeImage(List.of(names), sizeBytes));
            return this;
        }

        /** A foreign pod on the node, counted in {@code otherPods} with no resources of its own here. */
        public Builder foreignPod(ForeignPod p) {
            foreignPods.add(p);
            otherPods++;
            return this;
        }

        public NodeInfo build() {
            return new NodeInfo(
                    name, allocatable, otherUsed, otherPods, labels, taints, unschedulable, images, foreignPods);
        }
    }
}
