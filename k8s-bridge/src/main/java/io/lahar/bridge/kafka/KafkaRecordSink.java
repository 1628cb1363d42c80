package io.lahar.bridge.kafka;

import io.lahar.bridge.reconcile.RecordSink;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The bridge's one producer, for every topic it writes (pod events, nodes, job commands, queues,
 * dead letters). Values are encoded through {@link RegistrySerdes}, one serializer per record
 * class; a null value is a tombstone and is not Avro.
 *
 * <p>Published records (the watches' pod events) wait up to the linger to share a produce request
 * with their neighbours: every produce also wakes each consumer of the topic for a fetch, so fewer,
 * fuller produces spare the broker and the readers alike
 * (docs/decisions/067-pod-events-linger.md). A record sent and waited for does not wait out the
 * linger: it is flushed at once.
 */
public final class KafkaRecordSink implements RecordSink, AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final RegistrySerdes serdes;
    private final Map<Class<?>, Serializer<SpecificRecord>> serializers = new ConcurrentHashMap<>();

    /** @param linger how long a published record may wait for others to share its produce request */
    public KafkaRecordSink(KafkaClients kafka, RegistrySerdes serdes, Duration linger) {
        this.producer = kafka.producer(
                Map.of(
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.CLIENT_ID_CONFIG,
                        "lahar-k8s-bridge",
                        ProducerConfig.LINGER_MS_CONFIG,
                        (int) linger.toMillis()),
                new StringSerializer(),
                new ByteArraySerializer());
        this.serdes = serdes;
    }

    @Override
    public void send(String topic, String key, SpecificRecord value) {
        byte[] bytes = value == null ? null : serializer(value.getClass()).serialize(topic, value);
        try {
            var sent = producer.send(new ProducerRecord<>(topic, key, bytes));
            // Its caller waits for it (a dead letter before its offset is committed, a command): no linger.
            producer.flush();
            sent.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted sending to " + topic, e);
        } catch (ExecutionException e) {
            throw new KafkaException(
                    "sending to " + topic + " key " + key + " failed: "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    @Override
    public void publish(String topic, String key, SpecificRecord value, Consumer<RuntimeException> failed) {
        byte[] bytes;
        try {
            bytes = value == null ? null : serializer(value.getClass()).serialize(topic, value);
        } catch (RuntimeException e) {
            failed.accept(e);
            return;
        }
        // The idempotent producer keeps one key's records in the order they were handed over, retries included.
        producer.send(new ProducerRecord<>(topic, key, bytes), (metadata, error) -> {
            if (error != null) {
                failed.accept(new KafkaException(
                        "sending to " + topic + " key " + key + " failed: " + error.getMessage(), error));
            }
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Serializer<SpecificRecord> serializer(Class<?> type) {
        return serializers.computeIfAbsent(type, t -> (Serializer<SpecificRecord>)
                (Serializer) serdes.value((Class) t).serializer());
    }

    /** Within a bound: with the broker away, the producer's own close() waits on its unsent records for ever. */
    @Override
    public void close() {
        KafkaClients.close(producer);
    }
}
