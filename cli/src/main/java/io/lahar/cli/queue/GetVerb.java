package io.lahar.cli.queue;

import io.lahar.core.api.Queue;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar queue get}: one queue, as a table row or a document. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Show one queue and its status.")
final class GetVerb extends QueueVerb {

    @Option(
            names = {"-n", "--name"},
            required = true,
            description = "Queue name.")
    String name;

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
        Optional<Queue> queue = QueueSnapshot.of(topics.queues()).queue(name);
        if (queue.isEmpty()) {
            return notFound(name);
        }
        QueueView view = QueueView.of(queue.get(), topics.statuses().get(name));
        out().print(QueueTable.render(output, List.of(view), true));
        return 0;
    }
}
