package io.lahar.cli.queue;

import io.lahar.cli.CompactedTopics;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.Topics;
import java.util.Map;

/**
 * The CLI's access to {@code lahar.queues} and {@code lahar.queue-status}: both compacted and
 * read whole, to their end, so the result is the current value of every key (a tombstone
 * removes one).
 */
final class QueueTopics {

    private final CompactedTopics topics;

    QueueTopics(CompactedTopics topics) {
        this.topics = topics;
    }

    /** The configured queues by name. */
    Map<String, io.lahar.schema.Queue> queues() {
        return topics.readToEnd(Topics.QUEUES.name(), io.lahar.schema.Queue.class);
    }

    /** The scheduler's latest status of each queue, by name. */
    Map<String, QueueStatus> statuses() {
        return topics.readToEnd(Topics.QUEUE_STATUS.name(), QueueStatus.class);
    }

    /** Writes a queue's record, or its tombstone when {@code value} is null, and waits for the ack. */
    void write(String name, io.lahar.schema.Queue value) {
        topics.write(Topics.QUEUES.name(), io.lahar.schema.Queue.class, name, value);
    }
}
