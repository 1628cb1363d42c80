package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.Set;

/**
 * The example plugin of core/README.md, "Adding a scheduler plugin" (test sources only: it is not
 * shipped): prefers the nodes of one zone, named by {@code zonepreference.zone} and matched against
 * the node's {@code topology.kubernetes.io/zone} label, adding {@value NodeOrder#MAX_NODE_SCORE}
 * times {@code zonepreference.weight} (default 1) to their score. A preference, not a filter: when
 * the zone is full the other nodes still take the tasks.
 */
public final class ZonePreference implements Plugin {
    public static final String NAME = "zonepreference";
    static final String ZONE_LABEL = "topology.kubernetes.io/zone";
    static final String ZONE = NAME + ".zone";
    static final String WEIGHT = NAME + ".weight";

    private final String zone;
    private final double weight;

    /** Reads every argument up front: a bad or unknown one is a problem of the conf, with its path. */
    public ZonePreference(Arguments args) {
        for (String key : args.values().keySet()) {
            if (!Set.of(ZONE, WEIGHT).contains(key)) {
                throw new IllegalArgumentException(
                        "unknown argument " + key + " (known: " + ZONE + ", " + WEIGHT + ")");
            }
        }
        this.zone = args.getString(ZONE, "").strip();
        if (zone.isEmpty()) {
            throw new IllegalArgumentException("argument " + ZONE + ": the zone to prefer is required");
        }
        this.weight = args.getDouble(WEIGHT, 1);
        if (weight < 0) {
            throw new IllegalArgumentException("argument " + WEIGHT + ": must not be negative, got " + weight);
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

    /** Depends on the node's labels alone, which a session never changes: the candidate index stays exact. */
    private double score(SessionTask task, SessionNode node) {
        return zone.equals(node.info().labels().get(ZONE_LABEL)) ? NodeOrder.MAX_NODE_SCORE * weight : 0;
    }
}
