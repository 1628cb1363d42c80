package io.lahar.schema.codec;

import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PriorityClass;
import java.time.Instant;

/**
 * Kubernetes' PriorityClass to its {@code lahar.priority-classes} record and back: what a priority is
 * resolved from (name, value, globalDefault), whether its pods may preempt (preemptionPolicy), and
 * its description.
 */
public final class PriorityClassCodec {

    private PriorityClassCodec() {}

    /**
     * The record of a class, observed or written at {@code time}.
     *
     * @throws IllegalArgumentException when the class has no value (Kubernetes requires one)
     */
    public static io.lahar.schema.PriorityClass toRecord(PriorityClass pc, Instant time) {
        if (pc.value() == null) {
            throw new IllegalArgumentException("PriorityClass " + pc.name() + ": value: required");
        }
        return io.lahar.schema.PriorityClass.newBuilder()
                .setName(pc.name())
                .setValue(pc.value())
                .setGlobalDefault(Boolean.TRUE.equals(pc.globalDefault()))
                .setDescription(pc.description())
                .setTime(time)
                .setPreemptionPolicy(pc.preemptionPolicy())
                .build();
    }

    /** The class a record describes. */
    public static PriorityClass toPriorityClass(io.lahar.schema.PriorityClass record) {
        return new PriorityClass(
                PriorityClass.API_VERSION,
                PriorityClass.KIND,
                ObjectMeta.named(record.getName()),
                record.getValue(),
                record.getGlobalDefault(),
                record.getDescription(),
                record.getPreemptionPolicy());
    }
}
