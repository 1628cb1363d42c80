package io.lahar.schema.codec;

import io.lahar.core.api.Job;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.Transition;
import io.lahar.schema.JobTransition;
import io.lahar.schema.serde.CachingAvroSerializer;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.Encoder;

/** One {@link Transition} of the engine to its {@code lahar.job-transitions} record. */
public final class JobTransitionCodec {

    private JobTransitionCodec() {}

    /** Where the input that caused a transition was read: the audit trail back to the log. */
    public record Source(String topic, int partition, long offset) {}

    /**
     * The records of the transitions one input caused, each with the job's version and retry count
     * after the input (as the streams-app writes them and {@code lahar replay} re-builds them);
     * none when the job is gone.
     *
     * @param after the job's state after the input was applied
     */
    public static List<JobTransition> toRecords(JobInfo after, List<Transition> transitions, Source source) {
        return toValues(after, transitions, source).stream().map(Value::record).toList();
    }

    /**
     * A transition's record as the streams-app sends it: written straight from what the record is
     * made of ({@link #write(Encoder)}), not built and walked by Avro's writer. Why: the lifecycle
     * sends one per phase change (two or three per job's life at least), each a record of fifteen
     * fields, five of them unions Avro's writer resolves one by one. CodecTest holds the bytes to the
     * generic writer's over transitions with every field set and unset.
     */
    public record Value(
            String namespace, String name, Transition transition, int version, int retryCount, Source source)
            implements CachingAvroSerializer.Direct<JobTransition> {
        @Override
        public JobTransition record() {
            return toRecord(namespace, name, transition, version, retryCount, source);
        }

        @Override
        public void write(Encoder out) throws IOException {
            Transition t = transition;
            out.writeString(namespace);
            out.writeString(name);
            NullableWrites.string(t.from() == null ? null : t.from().name(), out);
            out.writeString(t.to().name());
            out.writeString(t.event() == null ? "OutOfSync" : t.event());
            NullableWrites.string(t.action(), out);
            NullableWrites.string(t.policy(), out);
            NullableWrites.string(t.reason(), out);
            NullableWrites.string(t.message(), out);
            out.writeInt(version);
            out.writeInt(retryCount);
            out.writeLong(t.time());
            out.writeString(source.topic());
            out.writeInt(source.partition());
            out.writeLong(source.offset());
        }
    }

    /** {@link #toRecords}, as values the sink writes straight (see {@link Value}). */
    public static List<Value> toValues(JobInfo after, List<Transition> transitions, Source source) {
        Job job = after.job();
        if (job == null || transitions.isEmpty()) {
            return List.of();
        }
        List<Value> out = new ArrayList<>(transitions.size());
        for (Transition t : transitions) {
            out.add(new Value(job.namespace(), job.name(), t, after.version(), after.retryCount(), source));
        }
        return out;
    }

    /**
     * @param version    the job's version after the input was applied
     * @param retryCount the job's retry count after the input was applied
     */
    public static JobTransition toRecord(
            String namespace, String name, Transition t, int version, int retryCount, Source source) {
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
