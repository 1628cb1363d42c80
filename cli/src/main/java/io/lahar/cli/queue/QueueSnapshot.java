package io.lahar.cli.queue;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.codec.QueueCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queues as they are now: the fresh-install {@code root} and {@code default} (they exist
 * from the start, whether or not anyone wrote them), overlaid with every record of
 * {@code lahar.queues}.
 */
record QueueSnapshot(AdmissionContext context) {

    static QueueSnapshot of(Map<String, io.lahar.schema.Queue> records) {
        AdmissionContext ctx = AdmissionContext.freshInstall();
        for (io.lahar.schema.Queue r : records.values()) {
            ctx = ctx.with(QueueCodec.toQueue(r));
        }
        return new QueueSnapshot(ctx);
    }

    Optional<Queue> queue(String name) {
        return context.queue(name);
    }

    /** Every queue, sorted by name, joined with its status. */
    List<QueueView> views(Map<String, QueueStatus> statuses) {
        List<QueueView> out = new ArrayList<>();
        context.queues().stream()
                .sorted(java.util.Comparator.comparing(Queue::name))
                .forEach(q -> out.add(QueueView.of(q, statuses.get(q.name()))));
        return out;
    }
}
