package io.lahar.cli.queue;

import io.lahar.cli.KafkaOptions;
import io.lahar.cli.Lahar;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Queue;
import io.lahar.schema.codec.QueueCodec;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every queue verb shares: the cluster options, reading the queues, and the exit codes —
 * 0 done, 1 rejected (one {@code error: <path>: <message>} line per reason, like
 * {@code lahar admit}), 2 usage or Kafka/registry unreachable.
 */
abstract class QueueVerb implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Override
    public final Integer call() {
        KafkaOptions.Resolved where = kafka.resolve(spec);
        try {
            return run(new QueueTopics(where.kafka(), where.serdes()));
        } catch (IllegalStateException e) {
            err().println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
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
