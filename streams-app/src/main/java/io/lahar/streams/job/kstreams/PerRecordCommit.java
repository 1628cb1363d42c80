package io.lahar.streams.job.kstreams;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The task's commits through Kafka Streams' public API only: the processor ends each input with
 * {@link #endOfRecord()}, which is a {@link Listener#beforeCommit()}, so whatever the listener holds
 * is written and forwarded before the input's offset can be committed (LittleHorse's
 * {@code CommandProcessor} ends each command so). The origin of a record is the input being
 * processed, which is still current when it is forwarded.
 */
public final class PerRecordCommit implements TaskCommit {

    private static final Origin CURRENT = new Origin() {
    };

    private final ProcessorContext<Object, Object> context;
    private Listener listener;

    public PerRecordCommit(ProcessorContext<Object, Object> context) {
        this.context = context;
    }

    @Override
    public void listen(Listener listener) {
        this.listener = listener;
    }

    /** The input is done: what it changed is written and sent now. */
    public void endOfRecord() {
        if (listener != null) {
            listener.beforeCommit();
        }
    }

    @Override
    public Origin origin() {
        return CURRENT;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void forward(Origin origin, Record<?, ?> record, String child) {
        context.forward((Record<Object, Object>) record, child);
    }
}
