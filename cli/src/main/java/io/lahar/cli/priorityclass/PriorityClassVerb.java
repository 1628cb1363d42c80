package io.lahar.cli.priorityclass;

import io.lahar.cli.CompactedTopicVerb;
import io.lahar.cli.CompactedTopics;
import io.lahar.core.api.PriorityClass;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.PriorityClassCodec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every PriorityClass verb shares: the cluster options, the classes as the topic has them, and
 * the exit codes — 0 done, 1 rejected or not found (one {@code error: <path>: <message>} line per
 * reason), 2 usage, unreadable input, or Kafka/registry unreachable.
 */
abstract class PriorityClassVerb extends CompactedTopicVerb {

    /** The classes on the topic, by name. */
    static Map<String, PriorityClass> classes(CompactedTopics topics) {
        Map<String, PriorityClass> out = new LinkedHashMap<>();
        topics.readToEnd(Topics.PRIORITY_CLASSES.name(), io.lahar.schema.PriorityClass.class)
                .forEach((name, record) -> out.put(name, PriorityClassCodec.toPriorityClass(record)));
        return out;
    }

    /** Writes the class's record, or its tombstone when {@code pc} is null, stamped with the wall clock: the CLI is an edge. */
    static void write(CompactedTopics topics, String name, PriorityClass pc) {
        topics.write(
                Topics.PRIORITY_CLASSES.name(),
                io.lahar.schema.PriorityClass.class,
                name,
                pc == null ? null : PriorityClassCodec.toRecord(pc, java.time.Instant.now()));
    }
}
