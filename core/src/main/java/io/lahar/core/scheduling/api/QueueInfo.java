package io.lahar.core.scheduling.api;

import io.lahar.core.api.QueueState;
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
 * @param state       the state asked for (the queue's record); what is in effect follows from it
 *                    and the queue's pod groups ({@link QueueState#effective})
 * @param priority    higher-priority queues are served first (proportion and capacity)
 * @param deserved    what the capacity plugin gives the queue; null when not set
 */
public record QueueInfo(
        String name,
        int weight,
        Resource capability,
        Resource guarantee,
        boolean reclaimable,
        String parent,
        QueueState state,
        int priority,
        Resource deserved) {

    public static final String ROOT = "root";

    public QueueInfo {
        Objects.requireNonNull(name, "name");
        capability = capability == null ? Resource.unlimited() : capability;
        guarantee = guarantee == null ? Resource.EMPTY : guarantee;
        parent = ROOT.equals(name) ? null : (parent == null || parent.isEmpty() ? ROOT : parent);
        state = state == null ? QueueState.Open : state;
        deserved = deserved == null || deserved.withPods(0).isEmpty() ? null : deserved;
    }

    public QueueInfo(
            String name,
            int weight,
            Resource capability,
            Resource guarantee,
            boolean reclaimable,
            String parent,
            QueueState state) {
        this(name, weight, capability, guarantee, reclaimable, parent, state, 0, null);
    }

    /** An open, reclaimable top-level queue of the given weight without limits. */
    public static QueueInfo of(String name, int weight) {
        return new QueueInfo(name, weight, null, null, true, ROOT, QueueState.Open);
    }

    public QueueInfo withCapability(Map<String, ?> quantities) {
        return new QueueInfo(
                name,
                weight,
                Resource.parseLimit(quantities),
                guarantee,
                reclaimable,
                parent,
                state,
                priority,
                deserved);
    }

    public QueueInfo withGuarantee(Map<String, ?> quantities) {
        return new QueueInfo(
                name, weight, capability, Resource.parse(quantities), reclaimable, parent, state, priority, deserved);
    }

    public QueueInfo withReclaimable(boolean r) {
        return new QueueInfo(name, weight, capability, guarantee, r, parent, state, priority, deserved);
    }

    public QueueInfo withParent(String p) {
        return new QueueInfo(name, weight, capability, guarantee, reclaimable, p, state, priority, deserved);
    }

    public QueueInfo withState(QueueState s) {
        return new QueueInfo(name, weight, capability, guarantee, reclaimable, parent, s, priority, deserved);
    }

    public QueueInfo withPriority(int p) {
        return new QueueInfo(name, weight, capability, guarantee, reclaimable, parent, state, p, deserved);
    }

    public QueueInfo withDeserved(Map<String, ?> quantities) {
        return new QueueInfo(
                name, weight, capability, guarantee, reclaimable, parent, state, priority, Resource.parse(quantities));
    }
}
