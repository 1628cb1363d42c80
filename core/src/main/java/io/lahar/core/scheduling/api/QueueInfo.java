package io.lahar.core.scheduling.api;

import io.lahar.core.resource.Resource;
import java.util.Map;
import java.util.Objects;

/**
 * A queue, as Volcano's {@code scheduling.volcano.sh/v1beta1 Queue}.
 *
 * @param weight      its share of its parent's resources relative to its siblings
 * @param capability  the most it may hold; a dimension it does not name is unlimited
 *                    ({@link Resource#parseLimit})
 * @param guarantee   what it is promised even when others want more
 * @param reclaimable whether other queues may reclaim resources it holds beyond its deserved share
 * @param parent      the parent queue's name; {@code root} for a top-level queue, null for root itself
 */
public record QueueInfo(String name, int weight, Resource capability, Resource guarantee, boolean reclaimable,
                        String parent, QueueState state) {

    public static final String ROOT = "root";

    public QueueInfo {
        Objects.requireNonNull(name, "name");
        capability = capability == null ? Resource.unlimited() : capability;
        guarantee = guarantee == null ? Resource.EMPTY : guarantee;
        parent = ROOT.equals(name) ? null : (parent == null || parent.isEmpty() ? ROOT : parent);
        state = state == null ? QueueState.Open : state;
    }

    /** An open, reclaimable top-level queue of the given weight without limits. */
    public static QueueInfo of(String name, int weight) {
        return new QueueInfo(name, weight, null, null, true, ROOT, QueueState.Open);
    }

    public QueueInfo withCapability(Map<String, ?> quantities) {
        return new QueueInfo(name, weight, Resource.parseLimit(quantities), guarantee, reclaimable, parent, state);
    }

    public QueueInfo withGuarantee(Map<String, ?> quantities) {
        return new QueueInfo(name, weight, capability, Resource.parse(quantities), reclaimable, parent, state);
    }

    public QueueInfo withReclaimable(boolean r) {
        return new QueueInfo(name, weight, capability, guarantee, r, parent, state);
    }

    public QueueInfo withParent(String p) {
        return new QueueInfo(name, weight, capability, guarantee, reclaimable, p, state);
    }

    public QueueInfo withState(QueueState s) {
        return new QueueInfo(name, weight, capability, guarantee, reclaimable, parent, s);
    }
}
