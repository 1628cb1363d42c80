package io.lahar.bridge.kafka;

import io.lahar.schema.Bind;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.Evict;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Which {@link CallLanes} lane a record's work goes to, and which other lane it waits for: one
 * pod's calls in the order they were read, a job's plugin objects before its pods.
 */
final class RecordLane {

    private RecordLane() {}

    /**
     * The lane of a record: a pod's (its creates, deletes, binds and evictions in one lane), a job's
     * plugin objects', or else its topic's object's (the record key).
     */
    static String of(ConsumerRecord<String, byte[]> record, SpecificRecord value) {
        if (value instanceof PodIntent intent) {
            return switch (intent.getIntent()) {
                case CreatePod create -> pod(intent.getNamespace() + "/" + create.getPod());
                case DeletePod delete -> pod(intent.getNamespace() + "/" + delete.getPod());
                default -> objects(record.key());
            };
        }
        if (value instanceof SchedulerDecision decision) {
            return switch (decision.getDecision()) {
                case Bind bind -> pod(decision.getNamespace() + "/" + bind.getPod());
                case Evict evict -> pod(decision.getNamespace() + "/" + evict.getPod());
                default -> record.topic() + ":" + record.key();
            };
        }
        return record.topic() + ":" + record.key();
    }

    /**
     * The lane a record's work waits for besides its own: a pod's create waits for its job's plugin
     * objects (the Services, ConfigMaps, Secrets, NetworkPolicies and claims its pods mount or
     * resolve), which the engine asks for before the pods and which Volcano's controller makes
     * before it creates them; null for every other record.
     */
    static String after(ConsumerRecord<String, byte[]> record, SpecificRecord value) {
        return value instanceof PodIntent intent && intent.getIntent() instanceof CreatePod
                ? objects(record.key())
                : null;
    }

    /** The lane of the pod {@code namespace/name}. */
    static String pod(String key) {
        return "pod:" + key;
    }

    private static String objects(String jobKey) {
        return "objects:" + jobKey;
    }
}
