package io.lahar.cli.queue;

import io.lahar.core.api.Queue;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code lahar queue get}: one queue, as a table row or a document. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Show one queue and its status.")
final class GetVerb extends QueueVerb {

    @Mixin
    QueueName queueName;

    @Mixin
    QueueOutput output;

    @Override
    int run(QueueTopics topics) {
        if (!output.valid(err())) {
            return io.lahar.cli.Lahar.EXIT_INPUT;
        }
        Optional<Queue> queue = QueueSnapshot.of(topics.queues()).queue(queueName.name);
        if (queue.isEmpty()) {
            return notFound(queueName.name);
        }
        QueueView view = QueueView.of(queue.get(), topics.statuses().get(queueName.name));
        out().print(output.render(List.of(view), true));
        return 0;
    }
}
