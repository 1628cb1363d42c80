package io.lahar.streams.flow;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Re-keys records of a topic keyed by job to the key of the JobFlow they concern, for a repartition
 * to the task that owns the flow. Most records are no flow's: one whose bytes do not contain
 * {@code marker} is dropped without being decoded, so the topic's traffic costs one byte scan per
 * record; tombstones are dropped. The subclasses say where the flow is written in a record
 * ({@link #flowKey}) and what becomes of a marked record that does not decode.
 */
abstract class FlowRekey<T> implements Processor<String, byte[], String, byte[]> {

    private final String topic;
    private final ByteMarker marker;
    private final Deserializer<T> deserializer;
    private final boolean forwardUndecodable;
    private ProcessorContext<String, byte[]> context;

    /**
     * @param forwardUndecodable whether a marked record that does not decode is passed on under its
     *                           own key (for the flow engine to dead-letter), or dropped
     */
    FlowRekey(String topic, String marker, Deserializer<T> deserializer, boolean forwardUndecodable) {
        this.topic = topic;
        this.marker = new ByteMarker(marker.getBytes(StandardCharsets.UTF_8));
        this.deserializer = deserializer;
        this.forwardUndecodable = forwardUndecodable;
    }

    /** The flow's key ({@code namespace/flow}) the record concerns; empty when it is no flow's. */
    abstract Optional<String> flowKeyOf(T value);

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null || !marker.in(record.value())) {
            return;
        }
        T value;
        try {
            value = deserializer.deserialize(topic, record.value());
        } catch (RuntimeException e) {
            if (forwardUndecodable) {
                context.forward(record);
            }
            return;
        }
        flowKeyOf(value).ifPresent(k -> context.forward(record.withKey(k)));
    }
}
