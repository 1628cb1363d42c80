package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.NodeImage;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' ImageLocality score: for each of the pod's containers whose image the node has, the
 * image's size scaled by the share of nodes that have it (so an image everywhere counts less than
 * one on a few nodes), summed, clamped between 23 MiB and 1000 MiB per container and mapped onto
 * 0..100. A container image without a tag is looked up as {@code :latest}.
 */
final class ImageLocality {
    private static final long MB = 1024 * 1024;
    private static final long MIN_THRESHOLD = 23 * MB;
    private static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

    private record State(long size, int numNodes) {}

    private final int totalNodes;
    private final Map<String, State> states = new HashMap<>();
    private final List<Set<String>> namesByNode;
    private final Map<List<String>, long[]> cache = new HashMap<>();

    ImageLocality(List<SessionNode> nodes) {
        this.totalNodes = nodes.size();
        this.namesByNode = new java.util.ArrayList<>(nodes.size());
        Map<String, Integer> count = new HashMap<>();
        Map<String, Long> size = new HashMap<>();
        for (SessionNode n : nodes) {
            Set<String> names = new HashSet<>();
            for (NodeImage im : n.info().images()) {
                for (String name : im.names()) {
                    if (names.add(name)) {
                        count.merge(name, 1, Integer::sum);
                        size.put(name, im.sizeBytes());
                    }
                }
            }
            namesByNode.add(names);
        }
        count.forEach((name, c) -> states.put(name, new State(size.get(name), c)));
    }

    /** The node's score for the task's images (0 when it has none of them); per task images and node, computed once. */
    long score(SessionTask task, SessionNode node) {
        List<String> images = task.info().spec().images();
        if (images.isEmpty() || states.isEmpty()) return 0;
        long[] byNode = cache.computeIfAbsent(images, k -> {
            long[] a = new long[namesByNode.size()];
            java.util.Arrays.fill(a, -1);
            return a;
        });
        long s = byNode[node.index()];
        if (s < 0) {
            s = calculatePriority(sum(images, namesByNode.get(node.index())), images.size());
            byNode[node.index()] = s;
        }
        return s;
    }

    private long sum(List<String> images, Set<String> onNode) {
        long sum = 0;
        for (String image : images) {
            String name = normalized(image);
            if (!onNode.contains(name)) continue;
            State st = states.get(name);
            sum += (long) (st.size() * ((double) st.numNodes() / totalNodes));
        }
        return sum;
    }

    private static long calculatePriority(long sum, int containers) {
        long max = MAX_CONTAINER_THRESHOLD * containers;
        long clamped = Math.max(MIN_THRESHOLD, Math.min(max, sum));
        return NodeOrder.MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) / (max - MIN_THRESHOLD);
    }

    static String normalized(String image) {
        return image.lastIndexOf(':') <= image.lastIndexOf('/') ? image + ":latest" : image;
    }
}
