package io.lahar.schema.codec;

import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;

import java.util.Map;

/** Maps the queues topic's Avro records to Volcano's Queue as admission and scheduling see it. */
public final class QueueRecords {

    private QueueRecords() {
    }

    public static Queue toQueue(io.lahar.schema.Queue record) {
        Queue.QueueSpec spec = new Queue.QueueSpec(
                record.getWeight(),
                emptyToNull(record.getCapability()),
                record.getReclaimable(),
                null,
                record.getParent(),
                record.getGuarantee() == null || record.getGuarantee().isEmpty() ? null : new Queue.Guarantee(record.getGuarantee()),
                emptyToNull(record.getDeserved()),
                null,
                null,
                null,
                record.getPriority());
        return new Queue(Queue.API_VERSION, Queue.KIND, ObjectMeta.named(record.getName()), spec,
                Queue.QueueStatus.of(QueueState.valueOf(record.getState().name())));
    }

    private static Map<String, String> emptyToNull(Map<String, String> map) {
        return map == null || map.isEmpty() ? null : map;
    }
}
