package io.lahar.bridge.reconcile;

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
}
