package io.lahar.streams.kafka;

import io.lahar.schema.deadletter.DeadLetters;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The records that killed a stream thread, so that no record can do it twice. A processor notes the
 * record it is about to process ({@link #enter}) and forgets it when done ({@link #exit}); a record
 * that kills the thread instead (an {@link Error}, which no processor catches) is still noted when
 * the uncaught-exception handler runs on the dying thread, and {@link #killed} makes it fatal. The
 * thread's work since its last commit is rolled back and its replacement reads the record again:
 * {@link #enter} then answers why it killed a thread, and the processor dead-letters it instead of
 * processing it.
 *
 * <p>Kept in memory, at most {@value #MAX_FATAL} records (the oldest forgotten first): a process
 * that dies with its thread meets the record once more after its restart, and then only once.
 * Records are named by topic, partition and offset, which stay the same when read again.
 */
public final class FatalRecords {

    static final int MAX_FATAL = 1024;

    private record Place(String topic, int partition, long offset) {
        @Override
        public String toString() {
            return DeadLetters.where(topic, partition, offset);
        }
    }

    /** The record each stream thread is processing; a one-element array so a processor keeps its thread's slot. */
    private final ThreadLocal<RecordMetadata[]> inFlight = ThreadLocal.withInitial(() -> new RecordMetadata[1]);

    private final Map<Place, String> fatal = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Place, String> eldest) {
            return size() > MAX_FATAL;
        }
    };
    /** Read on every record without a lock: true once a record has been fatal. */
    private volatile boolean any;

    /** The calling thread's slot, for a processor to keep while it runs on that thread. */
    RecordMetadata[] slot() {
        return inFlight.get();
    }

    /**
     * Notes {@code record} as the one {@code slot}'s thread is processing.
     *
     * @return why the record killed a stream thread before, or null when it did not
     */
    String enter(RecordMetadata[] slot, RecordMetadata record) {
        slot[0] = record;
        if (!any || record == null) {
            return null;
        }
        synchronized (fatal) {
            return fatal.get(new Place(record.topic(), record.partition(), record.offset()));
        }
    }

    /** The record was processed (or dead-lettered): it did not kill the thread. */
    static void exit(RecordMetadata[] slot) {
        slot[0] = null;
    }

    /**
     * Called on a stream thread that {@code error} kills: the record it was processing, if any, is
     * fatal from now on, with the error as the reason.
     *
     * @return where that record is, when there was one
     */
    public Optional<String> killed(Throwable error) {
        RecordMetadata[] slot = inFlight.get();
        RecordMetadata record = slot[0];
        slot[0] = null;
        if (record == null) {
            return Optional.empty();
        }
        Place place = new Place(record.topic(), record.partition(), record.offset());
        synchronized (fatal) {
            fatal.put(
                    place,
                    "the record killed stream thread " + Thread.currentThread().getName() + ": "
                            + DeadLetters.reason(error));
            any = true;
        }
        return Optional.of(place.toString());
    }
}
