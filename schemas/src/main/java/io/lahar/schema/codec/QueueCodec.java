package io.lahar.schema.codec;

import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano's Queue to its {@code lahar.queues} record and back. The record keeps what the
 * scheduler and admission read (weight, capability, deserved, guarantee, reclaimable, parent,
 * state, priority); the rest of the spec (affinity, extendClusters, type) has no field and is
 * dropped. Maps are copied sorted so the same queue always encodes to the same bytes.
 */
public final class QueueCodec {

    private QueueCodec() {}

    /** The record of an admitted (defaulted) queue, written at {@code time} (epoch ms). */
    public static io.lahar.schema.Queue toRecord(Queue queue, long time) {
        Queue.QueueSpec spec = queue.spec();
        return io.lahar.schema.Queue.newBuilder()
                .setName(queue.name())
                .setWeight(spec == null || spec.weight() == null ? 1 : spec.weight())
                .setCapability(sorted(spec == null ? null : spec.capability()))
                .setDeserved(sorted(spec == null ? null : spec.deserved()))
                .setGuarantee(sorted(
                        spec == null || spec.guarantee() == null
                                ? null
                                : spec.guarantee().resource()))
                .setReclaimable(spec == null || spec.reclaimable() == null || spec.reclaimable())
                .setParent(
                        spec == null || spec.parent() == null || spec.parent().isEmpty() ? null : spec.parent())
                .setState(io.lahar.schema.QueueState.valueOf(queue.stateOrOpen().name()))
                .setPriority(spec == null || spec.priority() == null ? 0 : spec.priority())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    /** The queue a record describes; empty maps read back as absent, as in a Volcano manifest. */
    public static Queue toQueue(io.lahar.schema.Queue record) {
        Queue.QueueSpec spec = new Queue.QueueSpec(
                record.getWeight(),
                emptyToNull(record.getCapability()),
                record.getReclaimable(),
                null,
                record.getParent() == null ? null : record.getParent().toString(),
                record.getGuarantee() == null || record.getGuarantee().isEmpty()
                        ? null
                        : new Queue.Guarantee(strings(record.getGuarantee())),
                emptyToNull(record.getDeserved()),
                null,
                null,
                null,
                record.getPriority());
        // An older reader sees a newer state as Unknown; keep it rather than guessing Open.
        QueueState state = QueueState.of(record.getState().name()).orElse(QueueState.Unknown);
        return new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named(record.getName().toString()),
                spec,
                Queue.QueueStatus.of(state));
    }

    private static Map<String, String> sorted(Map<String, String> map) {
        return map == null ? new TreeMap<>() : new TreeMap<>(map);
    }

    private static Map<String, String> emptyToNull(Map<? extends CharSequence, ? extends CharSequence> map) {
        return map == null || map.isEmpty() ? null : strings(map);
    }

    /** Avro may hand out Utf8 keys and values; the core wants plain strings. */
    private static Map<String, String> strings(Map<? extends CharSequence, ? extends CharSequence> map) {
        Map<String, String> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }
}
