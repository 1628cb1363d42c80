package io.lahar.streams.queue;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Queue;
import io.lahar.schema.codec.QueueCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Admission's view of the queues: the global queue store, over the queues every Volcano install
 * has ({@code root}, and {@code default} open under it) until the topic says otherwise.
 */
public final class QueueLookup {

    /** The global store over lahar.queues (kept by a {@code GlobalStoreUpdater}). */
    public static final String STORE = "queues";

    private final ReadOnlyKeyValueStore<String, byte[]> store;
    private final Deserializer<io.lahar.schema.Queue> deserializer;

    public QueueLookup(ReadOnlyKeyValueStore<String, byte[]> store, Deserializer<io.lahar.schema.Queue> deserializer) {
        this.store = store;
        this.deserializer = deserializer;
    }

    public AdmissionContext admissionContext() {
        Map<String, Manifest> queues = new LinkedHashMap<>();
        queues.put(Queue.ROOT, AdmissionContext.openQueue(Queue.ROOT, null));
        queues.put(Queue.DEFAULT, AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT));
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<String, byte[]> entry = all.next();
                queues.put(entry.key, QueueCodec.toQueue(deserializer.deserialize(STORE, entry.value)));
            }
        }
        List<Manifest> existing = new ArrayList<>(queues.values());
        return AdmissionContext.of(existing);
    }
}
