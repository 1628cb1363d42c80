package io.lahar.schema.deadletter;

import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The rules every consumer holds its input records to, whatever the topic: a record is keyed (a
 * non-empty key); only a compacted topic has tombstones (a null value deletes the key's object); the
 * value decodes, through the registry, as the topic's record type; and the key names the record's
 * own object — on a compacted topic the key is the identity, so a value naming another object is
 * bad input, never a second object. A record that breaks one throws {@link IllegalArgumentException}
 * with the reason; the caller dead-letters it. A {@link TransientFailure} (the registry did not
 * answer) passes through: the record is not at fault.
 */
public final class InputRecords {

    private InputRecords() {}

    /**
     * The value of a record read from {@code topic}, checked.
     *
     * @return the decoded record, or null for a tombstone on a compacted topic
     */
    public static <T extends SpecificRecord> T read(
            Topics.TopicSpec topic, String key, byte[] value, Deserializer<T> deserializer) {
        requireKey(topic, key);
        if (value == null) {
            requireTombstoneAllowed(topic);
            return null;
        }
        T record = deserializer.deserialize(topic.name(), value);
        if (record == null) {
            throw new IllegalArgumentException("value: decoded to nothing");
        }
        requireIdentity(topic, key, record);
        return record;
    }

    /** A record must have a key: every Lahar topic is keyed by the object its records are about. */
    public static void requireKey(Topics.TopicSpec topic, String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key: the record has " + (key == null ? "no" : "an empty") + " key; "
                    + topic.name() + " is keyed by " + topic.keyDescription());
        }
    }

    /** Only a compacted topic has tombstones: elsewhere a null value is a record without content. */
    public static void requireTombstoneAllowed(Topics.TopicSpec topic) {
        if (!topic.compacted()) {
            throw new IllegalArgumentException(
                    "value: the record has no value, and " + topic.name() + " has no tombstones (it is not compacted)");
        }
    }

    /** The key must name the record's own object ({@link #identity}). */
    public static void requireIdentity(Topics.TopicSpec topic, String key, SpecificRecord record) {
        String identity = identity(record);
        if (identity != null && !key.equals(identity)) {
            throw new IllegalArgumentException("key: the record key \"" + key + "\" does not match the record's own "
                    + topic.keyDescription() + " \"" + identity + "\"");
        }
    }

    /**
     * The clock topics are keyed by the partition number: a tick keyed otherwise was not written by
     * the ticker for this partition.
     */
    public static void requireClockKey(Topics.TopicSpec topic, String key, int partition) {
        requireKey(topic, key);
        if (!key.equals(Topics.clockKey(partition))) {
            throw new IllegalArgumentException(
                    "key: the record key \"" + key + "\" is not the number of its partition, " + partition + ": "
                            + topic.name() + " is keyed by " + topic.keyDescription());
        }
    }

    /**
     * The key a record of this type must have: {@code namespace/name} of the object it is about (the
     * job, for pod-level records), a node's, a queue's or a PriorityClass's name; null for a record with no identity of
     * its own (a tick, whose key is its partition).
     */
    public static String identity(SpecificRecord record) {
        return switch (record) {
            case JobCommand r -> Topics.jobKey(r.getNamespace(), r.getName());
            case CommandResult r -> Topics.jobKey(r.getNamespace(), r.getName());
            case PodEvent r -> Topics.jobKey(r.getNamespace(), r.getJob());
            case JobStatusRecord r -> Topics.jobKey(r.getNamespace(), r.getName());
            case JobTransition r -> Topics.jobKey(r.getNamespace(), r.getName());
            case PodGroup r -> Topics.jobKey(r.getNamespace(), r.getJob());
            case PodIntent r -> Topics.jobKey(r.getNamespace(), r.getJob());
            case WorkloadPod r -> Topics.jobKey(r.getNamespace(), r.getName());
            case SchedulerDecision r -> Topics.jobKey(r.getNamespace(), r.getJob());
            case JobTemplate r -> Topics.jobKey(r.getNamespace(), r.getName());
            case FlowCommand r -> Topics.jobKey(r.getNamespace(), r.getName());
            case JobFlowStatusRecord r -> Topics.jobKey(r.getNamespace(), r.getName());
            case CronJobCommand r -> Topics.jobKey(r.getNamespace(), r.getName());
            case CronJobStatusRecord r -> Topics.jobKey(r.getNamespace(), r.getName());
            case Node r -> r.getName();
            case Queue r -> r.getName();
            case QueueStatus r -> r.getName();
            case PriorityClass r -> r.getName();
            default -> null;
        };
    }
}
