package io.lahar.streams.queue;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Keeps the global queue store equal to the compacted queues topic. Values are stored as the
 * topic's bytes, so restoration after a restart (which copies bytes without running this
 * processor) gives the same store. A value that does not decode is not stored: a global
 * processor cannot forward to the dead-letter topic, so it is logged with its coordinates, and
 * admission behaves as if that queue did not exist.
 */
public final class QueueStoreUpdater implements Processor<String, byte[], Void, Void> {

    public static final String STORE = "queues";
    private static final Logger LOG = Logger.getLogger(QueueStoreUpdater.class);

    private final Deserializer<io.lahar.schema.Queue> deserializer;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, byte[]> store;

    public QueueStoreUpdater(Deserializer<io.lahar.schema.Queue> deserializer) {
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
            return;
        }
        try {
            deserializer.deserialize(QueueStoreUpdater.STORE, record.value());
            store.put(record.key(), record.value());
        } catch (RuntimeException e) {
            LOG.errorf("queue record %s at %s is not a valid Queue and is ignored: %s", record.key(),
                    context.recordMetadata().map(m -> m.topic() + "/" + m.partition() + "@" + m.offset()).orElse("?"), e);
        }
    }
}
