package io.lahar.streams.kafka;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.Failures;
import io.lahar.schema.deadletter.InputRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Keeps a global store equal to a compacted topic, values as the topic's bytes. Kafka Streams runs
 * this processor on every record of the topic, also when it restores the store at start (the
 * in-memory stores are rebuilt from the topic on every start), so the same rules hold at both:
 * <ul>
 *   <li>a record that breaks the input rules ({@link InputRecords}: no key, a value that does not
 *   decode as the topic's record type, a key other than the object's own name) is not stored, and
 *   is dead-lettered with the reason: the store keeps what it had for the key. A global processor
 *   cannot forward, so the letter goes through {@link GlobalDeadLetters};</li>
 *   <li>a record that failed for a transient cause (the registry did not answer) is tried again,
 *   after a pause growing to {@link #MAX_PAUSE}, until it applies: never lost, never dead-lettered.
 *   The global thread waits meanwhile, as every later record of the topic must (their order is the
 *   topic's), and the client stays out of RUNNING while a restore waits;</li>
 *   <li>a tombstone deletes the key.</li>
 * </ul>
 * Nothing is thrown: the global thread cannot be replaced, and an exception would stop the client.
 */
public final class GlobalStoreUpdater<T extends SpecificRecord> implements Processor<String, byte[], Void, Void> {

    private static final Logger LOG = Logger.getLogger(GlobalStoreUpdater.class);
    static final Duration FIRST_PAUSE = Duration.ofMillis(500);
    static final Duration MAX_PAUSE = Duration.ofSeconds(10);

    private final String storeName;
    private final Topics.TopicSpec topic;
    private final Deserializer<T> deserializer;
    private final Guards guards;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, byte[]> store;

    public GlobalStoreUpdater(String storeName, Topics.TopicSpec topic, Deserializer<T> deserializer, Guards guards) {
        this.storeName = storeName;
        this.topic = topic;
        this.deserializer = deserializer;
        this.guards = guards;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        Duration pause = FIRST_PAUSE;
        while (true) {
            try {
                Throwable poison = apply(record);
                if (poison != null) {
                    deadLetter(record, poison);
                }
                return;
            } catch (RuntimeException | Error e) {
                if (!Failures.isTransient(e)) {
                    LOG.errorf(e, "%s: not applied to %s, and its dead letter could not be sent", where(), storeName);
                    return;
                }
                if (guards.stopping()) {
                    LOG.warnf(
                            "%s: not applied to %s, the client is shutting down: %s",
                            where(), storeName, DeadLetters.reason(e));
                    return;
                }
                LOG.warnf(
                        "%s: cannot be applied to %s yet (%s); trying again in %d ms",
                        where(), storeName, DeadLetters.reason(e), pause.toMillis());
                sleep(pause);
                pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
            }
        }
    }

    /**
     * @return null when the record is applied, or why it never can be
     * @throws RuntimeException an outage, for the caller to wait out
     */
    private Throwable apply(Record<String, byte[]> record) {
        try {
            if (InputRecords.read(topic, record.key(), record.value(), deserializer) == null) {
                store.delete(record.key());
            } else {
                store.put(record.key(), record.value());
            }
            return null;
        } catch (RuntimeException | Error e) {
            if (Failures.isTransient(e)) {
                throw e;
            }
            return e;
        }
    }

    /** @throws RuntimeException when the letter cannot be sent (a transient cause is waited out with the record) */
    private void deadLetter(Record<String, byte[]> record, Throwable error) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        DeadLetter letter = DeadLetters.of(
                GuardedProcessor.PROCESSOR,
                topic.name(),
                meta == null ? -1 : meta.partition(),
                meta == null ? -1L : meta.offset(),
                record.timestamp(),
                key,
                record.value(),
                DeadLetters.reason(error));
        LOG.warn(DeadLetters.describe(letter) + " (not kept in " + storeName + ")");
        guards.globalDeadLetters().send(context, key, letter);
    }

    private String where() {
        return context.recordMetadata()
                .map(m -> DeadLetters.where(m.topic(), m.partition(), m.offset()))
                .orElse(topic.name());
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
