package io.lahar.streams.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.FlowRun;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Topics;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.Optional;

/**
 * Re-keys the status of the jobs a JobFlow created from the job's key to the flow's, so that a
 * repartition brings it to the task that owns the flow: {@code lahar.job-status} is keyed by the
 * job, and a flow's jobs hash to other partitions than the flow.
 *
 * <p>The flow is read from the {@code volcano.sh/createdByJobFlow} annotation (or label) the
 * engine puts on every job it creates, {@code <namespace>.<flow>}. Most jobs are not a flow's: a
 * record whose bytes do not contain the annotation's name is dropped without being decoded, so
 * the job traffic costs this node one byte scan per record. A record that has the marker but does
 * not decode is passed on under its own key: the flow engine then sends it to the dead-letter
 * topic (this node has no sink of its own). Tombstones carry no annotation and are dropped: a
 * flow learns nothing from a job's deletion that it did not ask for itself.
 */
final class FlowJobStatusRekey extends FlowRekey<JobStatusRecord> {

    FlowJobStatusRekey(Deserializer<JobStatusRecord> deserializer) {
        super(Topics.JOB_STATUS.name(), FlowRun.CREATED_BY_JOB_FLOW, deserializer, true);
    }

    @Override
    Optional<String> flowKeyOf(JobStatusRecord status) {
        return flowKey(status);
    }

    /** {@code namespace/flow} from the job's createdByJobFlow annotation, or label; empty when the job is no flow's. */
    static Optional<String> flowKey(JobStatusRecord status) {
        JsonNode meta;
        try {
            meta = Manifests.jsonMapper().readTree(status.getManifest()).path("metadata");
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
        String mark = meta.path("annotations").path(FlowRun.CREATED_BY_JOB_FLOW).asText("");
        if (mark.isEmpty()) {
            mark = meta.path("labels").path(FlowRun.CREATED_BY_JOB_FLOW).asText("");
        }
        // Namespaces are DNS labels (no dots): the first dot ends the namespace.
        int dot = mark.indexOf('.');
        if (dot <= 0 || dot == mark.length() - 1 || !mark.substring(0, dot).equals(status.getNamespace())) {
            return Optional.empty();
        }
        return Optional.of(Topics.jobKey(mark.substring(0, dot), mark.substring(dot + 1)));
    }
}
