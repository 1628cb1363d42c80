package io.lahar.cli.queue;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code lahar queue list}: every queue with its pod groups by phase, allocated and deserved. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List queues: lahar.queues joined with the scheduler's lahar.queue-status.")
final class ListVerb extends QueueVerb {

    @Mixin
    QueueOutput output;

    @Override
    int run(QueueTopics topics) {
        if (!output.valid(err())) {
            return io.lahar.cli.Lahar.EXIT_INPUT;
        }
        QueueSnapshot now = QueueSnapshot.of(topics.queues());
        out().print(output.render(now.views(topics.statuses()), false));
        return 0;
    }
}
