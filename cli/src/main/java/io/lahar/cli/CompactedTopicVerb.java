package io.lahar.cli;

import picocli.CommandLine.Mixin;

/**
 * A verb that reads and writes compacted topics of cluster-wide objects itself (queues,
 * PriorityClasses): the cluster options, and Kafka or the registry unreachable as exit 2 with its
 * reason.
 */
public abstract class CompactedTopicVerb extends Verb {

    @Mixin
    protected KafkaOptions kafka;

    @Override
    public final Integer call() {
        KafkaOptions.Resolved where = kafka.resolve(spec);
        try {
            return run(new CompactedTopics(where.kafka(), where.serdes()));
        } catch (IllegalStateException e) {
            err().println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
    }

    protected abstract int run(CompactedTopics topics);
}
