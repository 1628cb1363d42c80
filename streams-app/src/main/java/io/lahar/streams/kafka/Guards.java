package io.lahar.streams.kafka;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.api.Processor;

/**
 * What the topology's processors share to hold their input to the rules of bad input: the
 * registry serdes they decode and encode with, the records that killed a stream thread
 * ({@link FatalRecords}), the global stores' dead-letter path, and whether the client is shutting
 * down. Processing waits out an outage of the registry where it is — a stream thread for up to
 * {@link #PROCESSING_WAIT} per call, a global store's processor for as long as it lasts — except
 * past the end of the client: at PENDING_SHUTDOWN every wait ends. One per streams client; its
 * state listener.
 */
public final class Guards implements KafkaStreams.StateListener, AutoCloseable {

    /**
     * How long a stream thread waits for the registry in one call before it gives up the record (and
     * is replaced, to read it again): under the consumer's {@code max.poll.interval.ms} (5 min), so
     * the thread keeps its partitions while it waits; a replacement must first wait out the dead
     * thread's group session.
     */
    public static final Duration PROCESSING_WAIT = Duration.ofMinutes(4);

    private final RegistrySerdes serdes;
    private final FatalRecords fatal = new FatalRecords();
    private final GlobalDeadLetters globalDeadLetters;
    private volatile boolean stopping;

    /** With the global stores' letters sent through a producer of their own ({@link GlobalDeadLetters#producer}). */
    public Guards(RegistrySerdes serdes) {
        this(serdes, GlobalDeadLetters.producer(serdes.value(DeadLetter.class).serializer()));
    }

    public Guards(RegistrySerdes serdes, GlobalDeadLetters globalDeadLetters) {
        this.serdes = serdes;
        this.globalDeadLetters = globalDeadLetters;
    }

    /** The serdes of the topology's sources, sinks and stores. */
    public RegistrySerdes serdes() {
        return serdes;
    }

    /** {@code processor} inside a {@link GuardedProcessor} that dead-letters to its sink {@code deadLetters}. */
    public <K, KOut, VOut> Processor<K, byte[], KOut, VOut> guard(
            Processor<K, byte[], KOut, VOut> processor, String deadLetters) {
        return new GuardedProcessor<>(fatal, deadLetters, processor);
    }

    public FatalRecords fatal() {
        return fatal;
    }

    GlobalDeadLetters globalDeadLetters() {
        return globalDeadLetters;
    }

    /** True once the client is shutting down (or has failed): nothing is worth waiting for any more. */
    boolean stopping() {
        return stopping;
    }

    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState == KafkaStreams.State.PENDING_SHUTDOWN
                || newState == KafkaStreams.State.PENDING_ERROR
                || newState == KafkaStreams.State.ERROR
                || newState == KafkaStreams.State.NOT_RUNNING) {
            stopping = true;
            serdes.stopWaiting();
        }
    }

    @Override
    public void close() {
        globalDeadLetters.close();
    }
}
