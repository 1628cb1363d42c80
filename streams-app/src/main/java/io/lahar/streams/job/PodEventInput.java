package io.lahar.streams.job;

import io.lahar.core.job.Input;
import io.lahar.core.job.PodEvents;
import io.lahar.schema.PodEvent;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.PodEventCodec;
import io.lahar.schema.serde.CachingAvroDeserializer;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.jboss.logging.Logger;

/**
 * Pod events: what the kubelet (through the bridge) saw happen to one of the job's pods. Events
 * about a job that does not exist, or about another incarnation of it (a different job uid),
 * say nothing about this job and are skipped ({@link PodEvents#notForJob}).
 */
final class PodEventInput implements InputHandler {

    private static final Logger LOG = Logger.getLogger(PodEventInput.class);

    private final Deserializer<PodEvent> deserializer;
    private final JobEngine engine;

    PodEventInput(Deserializer<PodEvent> deserializer, JobEngine engine) {
        this.deserializer = deserializer;
        this.engine = engine;
    }

    @Override
    public void handle(String key, byte[] value, long timestamp) {
        PodEventCodec.Fields event = decode(value);
        if (!Topics.isJobKey(key, event.namespace(), event.job())) {
            throw new IllegalArgumentException("key: record key \"" + key + "\" does not match the event's job \""
                    + Topics.jobKey(event.namespace(), event.job()) + "\"");
        }
        Input.PodObserved input = event.toInput();
        JobEntry entry = engine.load(key);
        Optional<String> notForJob = PodEvents.notForJob(event.jobUid(), entry.info());
        if (notForJob.isPresent()) {
            LOG.debugf("pod event for %s from job uid %s: %s", key, event.jobUid(), notForJob.get());
            return;
        }
        engine.apply(key, entry, input, timestamp);
    }

    /** Read straight from the bytes where the registry serde allows it (a pod event per record; see {@link PodEventCodec#read}). */
    private PodEventCodec.Fields decode(byte[] value) {
        String topic = Topics.POD_EVENTS.name();
        if (value != null && deserializer instanceof CachingAvroDeserializer<PodEvent> caching) {
            PodEventCodec.Fields fields = caching.read(topic, value, PodEventCodec::read, PodEventCodec::fields);
            if (fields != null) {
                return fields;
            }
        }
        return PodEventCodec.fields(Decoding.decode(deserializer, topic, value));
    }
}
