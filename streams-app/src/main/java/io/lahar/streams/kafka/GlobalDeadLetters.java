package io.lahar.streams.kafka;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Where the global stores' processors send their dead letters: a global processor has no sink (it
 * cannot forward), so its letters go through a producer of their own, built from the streams
 * client's own settings (bootstrap servers, security) on the first letter.
 */
public interface GlobalDeadLetters extends AutoCloseable {

    /**
     * Sends {@code letter} and returns once the broker has it.
     *
     * @throws KafkaException when it could not be sent; a transient cause means "try again"
     */
    void send(ProcessorContext<?, ?> context, byte[] key, DeadLetter letter);

    @Override
    void close();

    /** Through a producer built from the client's settings, values encoded by {@code serializer}. */
    static GlobalDeadLetters producer(Serializer<DeadLetter> serializer) {
        return new Producer(serializer);
    }

    /** The letters sent through a {@link KafkaProducer} of their own. */
    final class Producer implements GlobalDeadLetters {

        private final Serializer<DeadLetter> serializer;
        private KafkaProducer<byte[], byte[]> producer;

        Producer(Serializer<DeadLetter> serializer) {
            this.serializer = serializer;
        }

        @Override
        public void send(ProcessorContext<?, ?> context, byte[] key, DeadLetter letter) {
            String topic = Topics.DEAD_LETTERS.name();
            byte[] value = serializer.serialize(topic, letter);
            try {
                producer(context.appConfigs())
                        .send(new ProducerRecord<>(topic, key, value))
                        .get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("interrupted sending a dead letter", e);
            } catch (ExecutionException e) {
                throw new KafkaException("sending a dead letter failed: " + e.getCause(), e.getCause());
            }
        }

        private synchronized KafkaProducer<byte[], byte[]> producer(Map<String, Object> appConfigs) {
            if (producer == null) {
                // The streams client's settings are the service's kafka. ones (Quarkus passes them
                // all to Kafka Streams): its connection settings are the other clients'.
                producer = KafkaClients.of(appConfigs)
                        .producer(
                                Map.of(
                                        ProducerConfig.CLIENT_ID_CONFIG, "lahar-global-dead-letters",
                                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                                        ProducerConfig.ACKS_CONFIG, "all"),
                                new ByteArraySerializer(),
                                new ByteArraySerializer());
            }
            return producer;
        }

        @Override
        public synchronized void close() {
            if (producer != null) {
                // Bounded: with the broker away its own close() outlasted bin/stop's grace.
                KafkaClients.close(producer);
                producer = null;
            }
        }
    }
}
