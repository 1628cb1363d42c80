package io.lahar.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A verb that reads and writes compacted topics of cluster-wide objects itself (queues,
 * PriorityClasses): the cluster options, and Kafka or the registry unreachable as exit 2 with its
 * reason.
 */
public abstract class CompactedTopicVerb implements Callable<Integer> {

    @Spec
    protected CommandSpec spec;

    @Mixin
    protected KafkaOptions kafka;

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

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
