package io.lahar.bridge.reconcile;

import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/** Where the watchers' records go: a Kafka producer in the service, a list in tests. */
@FunctionalInterface
public interface RecordSink {

    /**
     * Sends one record and returns once it is acknowledged.
     *
     * @param value null for a tombstone
     */
    void send(String topic, String key, SpecificRecord value);

    /**
     * Hands one record over to be sent and returns without waiting for its acknowledgement, so a
     * watch can go on to its next event meanwhile; records handed over under one key keep their
     * order. {@code failed} is told when the record could not be sent (on the sender's thread: it
     * must not block).
     *
     * @param value null for a tombstone
     */
    default void publish(String topic, String key, SpecificRecord value, Consumer<RuntimeException> failed) {
        try {
            send(topic, key, value);
        } catch (RuntimeException e) {
            failed.accept(e);
        }
    }
}
