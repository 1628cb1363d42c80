package io.lahar.scheduler.mapping;

import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.schema.Queue;
import java.util.ArrayList;
import java.util.List;

/** {@code lahar.queues} record to the scheduler's {@link QueueInfo}. */
public final class QueueMapping {
    private QueueMapping() {}

    /** @throws MappingException naming every bad field */
    public static QueueInfo toQueueInfo(Queue queue) {
        List<Problem> problems = new ArrayList<>();
        if (queue.getWeight() <= 0) problems.add(new Problem("weight", "must be positive, got " + queue.getWeight()));
        // A capability that names no dimension limits nothing (Resource.parseLimit), as in Volcano.
        Resource capability = Quantities.parseLimit(queue.getCapability(), "capability", problems);
        Resource guarantee = Quantities.parse(queue.getGuarantee(), "guarantee", problems);
        Resource deserved = Quantities.parse(queue.getDeserved(), "deserved", problems);
        MappingException.throwIfAny(problems);
        return new QueueInfo(
                queue.getName().toString(),
                queue.getWeight(),
                capability,
                guarantee,
                queue.getReclaimable(),
                Strings.of(queue.getParent()),
                state(queue.getState()),
                queue.getPriority(),
                deserved);
    }

    /** Unknown (what an older reader sees for a newer state) takes no new work, like Closed. */
    static QueueState state(io.lahar.schema.QueueState s) {
        if (s == null) return QueueState.Open;
        return switch (s) {
            case Open -> QueueState.Open;
            case Closed -> QueueState.Closed;
            case Closing -> QueueState.Closing;
            default -> QueueState.Unknown;
        };
    }
}
