package io.lahar.core.scheduling.plugins;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.framework.SessionQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * The comparisons proportion and capacity make of a queue's resources, as Volcano's
 * LessEqualWithDimensionAndResourcesName: only the dimensions the request names are compared, and
 * a scalar the limit does not name counts as 0; each failure says which dimension and by how much.
 */
final class Queues {
    private Queues() {}

    /** Null when {@code allocated + request} stays within {@code limit}, else why not. */
    static String exceeds(SessionQueue q, String what, Resource allocated, Resource request, Resource limit) {
        List<String> over = over(allocated.add(request), request, limit);
        if (over.isEmpty()) return null;
        StringBuilder sb = new StringBuilder("queue \"")
                .append(q.name())
                .append("\" would exceed its ")
                .append(what)
                .append(": ");
        for (int i = 0; i < over.size(); i++) {
            String d = over.get(i);
            if (i > 0) sb.append(", ");
            sb.append(d)
                    .append(" allocated ")
                    .append(Resource.format(d, allocated.get(d)))
                    .append(" + request ")
                    .append(Resource.format(d, request.get(d)))
                    .append(" > ")
                    .append(what.startsWith("deserved") ? "deserved" : "capability")
                    .append(' ')
                    .append(Resource.format(d, limit.get(d)));
        }
        return sb.toString();
    }

    /** The enqueue gate: null when minResources + allocated + inqueue - elastic stays within the capability. */
    static String overCapability(
            SessionQueue q, Resource min, Resource allocated, Resource inqueue, Resource elastic, Resource capability) {
        List<String> over = over(min.add(allocated).add(inqueue).sub(elastic), min, capability);
        if (over.isEmpty()) return null;
        String d = over.get(0);
        return "queue \"" + q.name() + "\" over its capability: " + d + " allocated "
                + Resource.format(d, allocated.get(d))
                + " + inqueue " + Resource.format(d, inqueue.get(d)) + " + minResources "
                + Resource.format(d, min.get(d))
                + (elastic.get(d) > 0 ? " - elastic " + Resource.format(d, elastic.get(d)) : "")
                + " > capability " + Resource.format(d, capability.get(d));
    }

    /** The dimensions {@code request} names (not pods) in which {@code used} exceeds {@code limit}. */
    static List<String> over(Resource used, Resource request, Resource limit) {
        List<String> out = new ArrayList<>(2);
        for (String d : request.names()) {
            if (!Resource.PODS.equals(d) && used.get(d) > limit.get(d)) out.add(d);
        }
        return out;
    }
}
