package io.lahar.cli.queue;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar queue list}: every queue with its pod groups by phase, allocated and deserved. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List queues: lahar.queues joined with the scheduler's lahar.queue-status.")
final class ListVerb extends QueueVerb {

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table (default), json or yaml.")
    String output;

    @Override
    int run(QueueTopics topics) {
        if (!QueueCli.validOutput(output, err())) {
            return io.lahar.cli.Lahar.EXIT_INPUT;
        }
        QueueSnapshot now = QueueSnapshot.of(topics.queues());
        out().print(QueueTable.render(output, now.views(topics.statuses()), false));
        return 0;
    }
}
