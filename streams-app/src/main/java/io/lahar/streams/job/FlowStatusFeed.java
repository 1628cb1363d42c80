package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.flow.CreatedByFlow;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.CachingAvroSerializer;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The status records of the jobs a JobFlow created, handed by the job lifecycle to the flow engine:
 * each one the lifecycle sends on {@code lahar.job-status} for such a job is also forwarded, re-keyed
 * by the flow ({@code namespace/flow}, from the job's createdByJobFlow mark, {@link CreatedByFlow}),
 * to {@link #node()}, the repartition that brings it to the flow's task. The same bytes as on
 * {@code lahar.job-status}, sent in the same transaction.
 *
 * <p>The flow engine used to read {@code lahar.job-status} back and re-key what it found there:
 * every status record of every job — most of what the topology writes, each with its manifest —
 * was fetched, decompressed and scanned again by the same stream thread, for the few that are a
 * flow's. The lifecycle knows whose job it is before it writes
 * (docs/decisions/004-flow-clock-topic.md).
 *
 * @param node       the child node of the lifecycle that repartitions by flow key
 * @param serializer the job-status topic's value serializer (the flow engine decodes the bytes as
 *                   a {@code lahar.job-status} record)
 */
public record FlowStatusFeed(String node, Serializer<CachingAvroSerializer.Direct<JobStatusRecord>> serializer) {

    /** The flow's key and the record's bytes when {@code value}'s job is a flow's; empty otherwise. */
    Optional<Keyed> toFlow(StatusRecords.Value value) {
        Job job = value.job();
        return CreatedByFlow.of(job)
                .map(flow -> new Keyed(
                        Topics.jobKey(job.namespace(), flow), serializer.serialize(Topics.JOB_STATUS.name(), value)));
    }

    /** A status record under its flow's key. */
    record Keyed(String flowKey, byte[] status) {}
}
