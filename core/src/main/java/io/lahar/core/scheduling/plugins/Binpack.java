package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Volcano's binpack plugin: prefers the node that will be fullest after placing the task, per
 * resource weighted by {@code binpack.cpu}, {@code binpack.memory} and, for extended resources named
 * in {@code binpack.resources}, {@code binpack.resources.<name>}; the whole score is scaled by
 * {@code binpack.weight}. A node the task would overfill scores 0.
 */
public final class Binpack implements Plugin {
    public static final String NAME = "binpack";

    private final double weight;
    private final Map<String, Double> resourceWeights = new LinkedHashMap<>();

    public Binpack(Arguments args) {
        this.weight = args.getDouble("binpack.weight", 1);
        resourceWeights.put(Resource.CPU, args.getDouble("binpack.cpu", 1));
        resourceWeights.put(Resource.MEMORY, args.getDouble("binpack.memory", 1));
        String extra = args.getString("binpack.resources", "");
        for (String r : extra.split(",")) {
            String name = r.strip();
            if (!name.isEmpty()) {
                resourceWeights.put(name, args.getDouble("binpack.resources." + name, 1));
            }
        }
        for (Map.Entry<String, Double> e : resourceWeights.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException(
                        "weight of " + e.getKey() + " must not be negative, got " + e.getValue());
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        if (weight == 0) {
            return;
        }
        ssn.addNodeOrderFn(NAME, this::score);
    }

    double score(SessionTask task, SessionNode node) {
        Resource req = task.resreq();
        double score = 0;
        double weightSum = 0;
        for (Map.Entry<String, Double> e : resourceWeights.entrySet()) {
            String r = e.getKey();
            long request = req.get(r);
            if (request == 0 || e.getValue() == 0) {
                continue;
            }
            long allocatable = node.allocatable().get(r);
            long used = node.used().get(r);
            if (allocatable == 0 || used + request > allocatable) {
                return 0;
            }
            score += (double) (used + request) * e.getValue() / allocatable;
            weightSum += e.getValue();
        }
        if (weightSum == 0) {
            return 0;
        }
        return score / weightSum * NodeOrder.MAX_NODE_SCORE * weight;
    }
}
