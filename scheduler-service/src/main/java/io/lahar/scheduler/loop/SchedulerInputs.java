package io.lahar.scheduler.loop;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.Failures;
import io.lahar.schema.deadletter.InputRecords;
import io.lahar.schema.serde.CachingAvroDeserializer;
import io.lahar.schema.serde.RegistrySerdes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.jboss.logging.Logger;

/**
 * The scheduling loop's reading of its input records, held to the rules of every Lahar consumer
 * ({@link InputRecords}): a record without a key, a tombstone on a topic that has none (pod intents,
 * pod events, decisions), a value that does not decode as the topic's record type (an unknown schema
 * id, a record of another topic), a key other than the record's own object (a Node keyed {@code a}
 * named {@code b} would be a phantom node; a queue keyed other than its name would split the
 * views), or a record the cache cannot use ({@code MappingException}) is dead-lettered with the
 * reason, in the transaction that commits its offset, and changes nothing.
 *
 * <p>A record that failed because the registry did not answer is not the record's fault: it and
 * everything read after it in the batch are held (their partitions are to be read again from there),
 * and the fold stops; the loop pauses its input and tries again later.
 *
 * <p>The cache is rebuilt from the log on every start, so poison read before the offsets the group
 * committed was dead-lettered already (in the transaction that committed them): it is logged, not
 * sent again.
 */
final class SchedulerInputs {

    private static final Logger LOG = Logger.getLogger(SchedulerInputs.class);

    /** Applies one checked record to the cache (value null: a tombstone); true when an input changed it. */
    @FunctionalInterface
    interface Cache {
        boolean apply(String topic, String key, SpecificRecord value);
    }

    /**
     * @param changed     an input (not a decision read back) changed the cache
     * @param deadLetters to send with the next offsets
     * @param held        the first offset of each partition to read again, after an outage
     * @param outage      why, or null when nothing is held
     */
    record Fold(
            boolean changed,
            List<ProducerRecord<String, byte[]>> deadLetters,
            Map<TopicPartition, Long> held,
            String outage) {}

    /** An input topic and the reader of its values. */
    private record Input(Topics.TopicSpec topic, Deserializer<? extends SpecificRecord> values) {}

    private final Map<String, Input> inputs = new HashMap<>();
    private final Serializer<DeadLetter> deadLetterSerializer;
    private Map<TopicPartition, Long> deadLetteredBefore = Map.of();

    SchedulerInputs(RegistrySerdes serdes) {
        add(Topics.NODES, new CachingAvroDeserializer<>(Node.class, serdes));
        add(Topics.QUEUES, new CachingAvroDeserializer<>(Queue.class, serdes));
        add(Topics.POD_GROUPS, new CachingAvroDeserializer<>(PodGroup.class, serdes));
        add(Topics.POD_INTENTS, new CachingAvroDeserializer<>(PodIntent.class, serdes));
        add(Topics.POD_EVENTS, new CachingAvroDeserializer<>(PodEvent.class, serdes));
        add(Topics.WORKLOAD_PODS, new CachingAvroDeserializer<>(WorkloadPod.class, serdes));
        add(Topics.PRIORITY_CLASSES, new CachingAvroDeserializer<>(PriorityClass.class, serdes));
        add(Topics.SCHEDULER_DECISIONS, new CachingAvroDeserializer<>(SchedulerDecision.class, serdes));
        add(Topics.QUEUE_STATUS, new CachingAvroDeserializer<>(QueueStatus.class, serdes));
        deadLetterSerializer = serdes.value(DeadLetter.class).serializer();
    }

    private void add(Topics.TopicSpec topic, Deserializer<? extends SpecificRecord> values) {
        inputs.put(topic.name(), new Input(topic, values));
    }

    /** The offsets the group committed: the poison before them is on the dead-letter topic already. */
    void deadLetteredBefore(Map<TopicPartition, Long> committed) {
        deadLetteredBefore = Map.copyOf(committed);
    }

    Fold fold(Iterable<ConsumerRecord<String, byte[]>> records, Cache cache) {
        boolean changed = false;
        List<ProducerRecord<String, byte[]>> letters = new ArrayList<>();
        Map<TopicPartition, Long> held = new LinkedHashMap<>();
        String outage = null;
        for (ConsumerRecord<String, byte[]> r : records) {
            if (outage != null) {
                held.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
                continue;
            }
            try {
                changed |= fold(r, cache, letters);
            } catch (RuntimeException e) {
                // Only an outage gets here: the registry did not answer, to read the record or to write its letter.
                outage = DeadLetters.reason(e);
                held.put(new TopicPartition(r.topic(), r.partition()), r.offset());
                LOG.warnf(
                        "%s: held with the rest of its input until the registry answers: %s",
                        DeadLetters.where(r.topic(), r.partition(), r.offset()), outage);
            }
        }
        return new Fold(changed, letters, held, outage);
    }

    /**
     * @return true when an input changed the cache
     * @throws RuntimeException an outage (nothing changed, no letter written)
     */
    private boolean fold(ConsumerRecord<String, byte[]> r, Cache cache, List<ProducerRecord<String, byte[]>> letters) {
        try {
            Input input = inputs.get(r.topic());
            if (input == null) {
                throw new IllegalStateException("not an input of the scheduler: " + r.topic());
            }
            SpecificRecord value = InputRecords.read(input.topic(), r.key(), r.value(), input.values());
            return cache.apply(r.topic(), r.key(), value);
        } catch (RuntimeException e) {
            if (Failures.isTransient(e)) {
                throw e;
            }
            deadLetter(r, e, letters);
            return false;
        }
    }

    private void deadLetter(
            ConsumerRecord<String, byte[]> r, RuntimeException error, List<ProducerRecord<String, byte[]>> letters) {
        DeadLetter letter = DeadLetters.of(SchedulingLoop.PROCESSOR, r, error);
        if (r.offset() < deadLetteredBefore.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L)) {
            LOG.debugf("%s (dead-lettered before)", DeadLetters.describe(letter));
            return;
        }
        LOG.warn(DeadLetters.describe(letter));
        String topic = Topics.DEAD_LETTERS.name();
        letters.add(new ProducerRecord<>(topic, r.key(), deadLetterSerializer.serialize(topic, letter)));
    }
}
