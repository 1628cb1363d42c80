package io.lahar.streams.flow;

import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * Reads of the two global stores: the JobTemplates every flow may instantiate (lahar.job-templates)
 * and the JobFlows with their phase (lahar.flow-status). Both are views of compacted topics
 * written by this engine on other partitions, hence eventually consistent: they lag the writes by
 * the time the global thread takes to read them back (milliseconds). That is acceptable where
 * they are used — a flow instantiates the template it finds (a template replaced a moment ago
 * counts as "updated after the job was created", which Volcano allows), a flow whose template is
 * not visible yet waits and looks again on the next tick, and a template deletion racing a flow
 * submission in the same milliseconds is the same race Volcano's webhook has with its informer cache.
 */
final class TemplateLookup {

    private static final Logger LOG = Logger.getLogger(TemplateLookup.class);

    private final KeyValueStore<String, byte[]> templates;
    private final Deserializer<io.lahar.schema.JobTemplate> templateDecoder;
    private final KeyValueStore<String, byte[]> flowStatus;
    private final Deserializer<JobFlowStatusRecord> statusDecoder;

    TemplateLookup(
            KeyValueStore<String, byte[]> templates,
            Deserializer<io.lahar.schema.JobTemplate> templateDecoder,
            KeyValueStore<String, byte[]> flowStatus,
            Deserializer<JobFlowStatusRecord> statusDecoder) {
        this.templates = templates;
        this.templateDecoder = templateDecoder;
        this.flowStatus = flowStatus;
        this.statusDecoder = statusDecoder;
    }

    Optional<JobTemplate> template(String namespace, String name) {
        byte[] bytes = templates.get(Topics.jobKey(namespace, name));
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    FlowCodecs.fromTemplateRecord(templateDecoder.deserialize(Topics.JOB_TEMPLATES.name(), bytes)));
        } catch (RuntimeException e) {
            LOG.errorf(
                    "template %s/%s in the global store does not decode, treated as missing: %s", namespace, name, e);
            return Optional.empty();
        }
    }

    /** The templates of {@code namespace} that the flow's entries name (the ones that exist). */
    List<JobTemplate> templatesOf(JobFlow flow) {
        List<JobTemplate> out = new ArrayList<>();
        flow.spec().flowsOrEmpty().forEach(f -> {
            if (f != null && f.name() != null) {
                template(flow.namespace(), f.name()).ifPresent(out::add);
            }
        });
        return out;
    }

    /** Every JobFlow of {@code namespace} with its phase as last published. */
    List<JobFlow> flows(String namespace) {
        List<JobFlow> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = flowStatus.range(namespace + "/", namespace + "/\uffff")) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                if (kv.value == null) {
                    continue;
                }
                try {
                    out.add(FlowCodecs.flowOf(statusDecoder.deserialize(Topics.FLOW_STATUS.name(), kv.value)));
                } catch (RuntimeException e) {
                    LOG.errorf("flow status %s in the global store does not decode, skipped: %s", kv.key, e);
                }
            }
        }
        return out;
    }
}
