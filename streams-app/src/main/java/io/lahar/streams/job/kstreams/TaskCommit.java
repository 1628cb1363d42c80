package io.lahar.streams.job.kstreams;

import org.apache.kafka.streams.processor.api.Record;

/**
 * The commit of a Kafka Streams task as the job engine sees it: a moment before each commit when
 * what the engine writes to its stores and forwards joins the commit's transaction, and a signal
 * when the task's uncommitted state is dropped. Only public Kafka Streams types here; the one
 * implementation ({@link CommitHookStore#taskCommit}) is where the internals are.
 */
public interface TaskCommit {

    /** Told before each commit of the task, and of each drop of what it did not commit. */
    interface Listener {

        /** Kafka Streams is about to commit the task: what is written or forwarded now joins its transaction. */
        void beforeCommit();

        /** The task's uncommitted state is dropped (closed dirty, recycled, re-initialised): forget it too. */
        void discard();
    }

    /** Where a record was made (the processor node and the input being processed), to forward it later as if from there. */
    interface Origin {}

    /** The one listener of the task's commits (one engine per task, replaced when the task is re-initialised). */
    void listen(Listener listener);

    /** The node and input being processed now. */
    Origin origin();

    /**
     * Forwards {@code record} to the child node {@code child} as the input of {@code origin} would
     * have (its topic, partition, offset and headers), from {@link Listener#beforeCommit()}, which
     * runs outside any node.
     */
    void forward(Origin origin, Record<?, ?> record, String child);
}
