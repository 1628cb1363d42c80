package io.lahar.cli.queue;

import picocli.CommandLine.Option;

/** The queue a verb acts on: {@code -n NAME}, as vcctl's queue verbs name it (queues have no namespace). */
final class QueueName {

    @Option(
            names = {"-n", "--name"},
            required = true,
            description = "Queue name.")
    String name;
}
