package io.lahar.schema.codec;

import io.lahar.core.job.Transition;
import io.lahar.schema.JobTransition;

import java.time.Instant;

/** One {@link Transition} of the engine to its {@code lahar.job-transitions} record. */
public final class JobTransitionCodec {

    private JobTransitionCodec() {
    }

    /** Where the input that caused a transition was read: the audit trail back to the log. */
    public record Source(String topic, int partition, long offset) {
    }

    /**
     * @param version    the job's version after the input was applied
     * @param retryCount the job's retry count after the input was applied
     */
    public static JobTransition toRecord(String namespace, String name, Transition t, int version, int retryCount,
                                         Source source) {
        return JobTransition.newBuilder()
                .setNamespace(namespace)
                .setName(name)
                .setFrom(t.from() == null ? null : t.from().name())
                .setTo(t.to().name())
                .setEvent(t.event() == null ? "OutOfSync" : t.event())
                .setAction(t.action())
                .setPolicy(t.policy())
                .setReason(t.reason())
                .setMessage(t.message())
                .setVersion(version)
                .setRetryCount(retryCount)
                .setTime(Instant.ofEpochMilli(t.time()))
                .setSourceTopic(source.topic())
                .setSourcePartition(source.partition())
                .setSourceOffset(source.offset())
                .build();
    }
}
