package io.lahar.streams.kafka;

import io.lahar.schema.DeadLetter;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.Failures;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.jboss.logging.Logger;

/**
 * Every stream processor of the topology runs inside one of these, which holds it to the rules of
 * bad input (docs/decisions/020-transient-is-not-poison.md):
 * <ul>
 *   <li>a record the processor throws on (it does not decode, is mis-keyed, or the engine cannot
 *   handle it) goes to the dead-letter topic with the reason, and the next record is processed;</li>
 *   <li>a failure that is an outage ({@link Failures#isTransient}: the registry or the broker did
 *   not answer) is not the record's fault: it is thrown on, the thread's transaction is rolled back
 *   and the uncaught-exception handler ({@link StreamThreadFailures}) replaces the thread after a
 *   pause, which reads the record again — never dead-lettered;</li>
 *   <li>a record that killed the thread (an {@link Error}, which is not caught here: the thread's
 *   state since its last commit cannot be trusted) is dead-lettered on its next reading, with what
 *   killed the thread as the reason ({@link FatalRecords}), so it cannot kill the thread again.</li>
 * </ul>
 * Values arrive as bytes, so that a record that does not decode reaches the processor rather than
 * failing in Kafka Streams' own deserialization.
 */
public final class GuardedProcessor<K, KOut, VOut> implements Processor<K, byte[], KOut, VOut> {

    private static final Logger LOG = Logger.getLogger(GuardedProcessor.class);
    /** The service named in the streams-app's dead letters. */
    public static final String PROCESSOR = "streams-app";

    private final FatalRecords fatal;
    private final String deadLetters;
    private final Processor<K, byte[], KOut, VOut> processor;
    private ProcessorContext<KOut, VOut> context;
    private RecordMetadata[] slot;
    private Thread slotThread;

    /** @param deadLetters the name of the processor's sink to {@code lahar.dead-letters} */
    public GuardedProcessor(FatalRecords fatal, String deadLetters, Processor<K, byte[], KOut, VOut> processor) {
        this.fatal = fatal;
        this.deadLetters = deadLetters;
        this.processor = processor;
    }

    @Override
    public void init(ProcessorContext<KOut, VOut> context) {
        this.context = context;
        processor.init(context);
    }

    @Override
    public void process(Record<K, byte[]> record) {
        RecordMetadata[] inFlight = slot();
        String killed = fatal.enter(inFlight, context.recordMetadata().orElse(null));
        if (killed != null) {
            deadLetter(record, killed);
            FatalRecords.exit(inFlight);
            return;
        }
        try {
            processor.process(record);
        } catch (RuntimeException e) {
            if (Failures.isTransient(e)) {
                throw e;
            }
            deadLetter(record, DeadLetters.reason(e));
        }
        FatalRecords.exit(inFlight);
    }

    /** This thread's slot in {@link FatalRecords}: a task, and so its processors, may move to another thread. */
    private RecordMetadata[] slot() {
        Thread current = Thread.currentThread();
        if (slotThread != current) {
            slot = fatal.slot();
            slotThread = current;
        }
        return slot;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void deadLetter(Record<K, byte[]> record, String reason) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        byte[] key = keyBytes(record.key());
        DeadLetter letter = DeadLetters.of(
                PROCESSOR,
                meta == null ? "unknown" : meta.topic(),
                meta == null ? -1 : meta.partition(),
                meta == null ? -1L : meta.offset(),
                record.timestamp(),
                key,
                record.value(),
                reason);
        LOG.warn(DeadLetters.describe(letter));
        // The sink's types are the letter's, not the processor's own outputs'.
        ((ProcessorContext) context).forward(new Record<>(key, letter, record.timestamp()), deadLetters);
    }

    private static byte[] keyBytes(Object key) {
        return switch (key) {
            case null -> null;
            case byte[] b -> b;
            default -> key.toString().getBytes(StandardCharsets.UTF_8);
        };
    }

    @Override
    public void close() {
        processor.close();
    }
}
