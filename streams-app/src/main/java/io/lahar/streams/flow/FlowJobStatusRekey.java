package io.lahar.streams.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.FlowRun;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Topics;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
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
final class FlowJobStatusRekey implements Processor<String, byte[], String, byte[]> {

    private static final byte[] MARKER = FlowRun.CREATED_BY_JOB_FLOW.getBytes(StandardCharsets.UTF_8);

    private final Deserializer<JobStatusRecord> deserializer;
    private ProcessorContext<String, byte[]> context;

    FlowJobStatusRekey(Deserializer<JobStatusRecord> deserializer) {
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null || !contains(record.value(), MARKER)) {
            return;
        }
        Optional<String> flowKey;
        try {
            flowKey = flowKey(deserializer.deserialize(Topics.JOB_STATUS.name(), record.value()));
        } catch (RuntimeException e) {
            context.forward(record);
            return;
        }
        flowKey.ifPresent(k -> context.forward(record.withKey(k)));
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

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
