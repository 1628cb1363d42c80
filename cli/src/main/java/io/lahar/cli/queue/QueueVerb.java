package io.lahar.cli.queue;

import io.lahar.cli.CompactedTopicVerb;
import io.lahar.cli.CompactedTopics;
import io.lahar.cli.Lahar;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Queue;
import io.lahar.schema.codec.QueueCodec;

/**
 * What every queue verb shares: the cluster options, reading the queues, and the exit codes —
 * 0 done, 1 rejected (one {@code error: <path>: <message>} line per reason, like
 * {@code lahar admit}), 2 usage or Kafka/registry unreachable.
 */
abstract class QueueVerb extends CompactedTopicVerb {

    @Override
    protected final int run(CompactedTopics topics) {
        return run(new QueueTopics(topics));
    }

    abstract int run(QueueTopics topics);

    /** Prints every violation and returns 1. */
    int rejected(AdmissionResult<?> result) {
        for (Violation v : result.violations()) {
            err().println("error: " + v);
        }
        return Lahar.EXIT_REJECTED;
    }

    int notFound(String name) {
        err().println("error: metadata.name: queue \"" + name + "\" not found");
        return Lahar.EXIT_REJECTED;
    }

    /** Writes the admitted queue, stamped with the wall clock: the CLI is an edge, not the core. */
    static void write(QueueTopics topics, Queue admitted) {
        topics.write(admitted.name(), QueueCodec.toRecord(admitted, System.currentTimeMillis()));
    }
}
