package io.lahar.streams.kafka;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Keeps a global store equal to a compacted topic, values as the topic's bytes (so a restore,
 * which copies bytes without running this processor, gives the same store). A value that does
 * not decode is not stored: a global processor cannot forward to the dead-letter topic, so it is
 * logged with its coordinates and the object counts as absent (a queue admission does not know,
 * a template a flow cannot use yet).
 */
public final class GlobalStoreUpdater implements Processor<String, byte[], Void, Void> {

    private static final Logger LOG = Logger.getLogger(GlobalStoreUpdater.class);

    private final String storeName;
    private final Deserializer<?> deserializer;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, byte[]> store;

    public GlobalStoreUpdater(String storeName, Deserializer<?> deserializer) {
        this.storeName = storeName;
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
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
            deserializer.deserialize(storeName, record.value());
            store.put(record.key(), record.value());
        } catch (RuntimeException e) {
            LOG.errorf("record %s at %s does not decode and is not kept in %s: %s", record.key(),
                    context.recordMetadata().map(m -> m.topic() + "/" + m.partition() + "@" + m.offset()).orElse("?"),
                    storeName, e);
        }
    }
}
