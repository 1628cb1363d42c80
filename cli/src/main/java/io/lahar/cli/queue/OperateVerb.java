package io.lahar.cli.queue;

import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.QueueAdmission;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lahar queue operate}: vcctl's queue operate — open or close a queue, or update its
 * weight. The change is admitted as an UPDATE of the stored queue.
 */
@Command(
        name = "operate",
        mixinStandardHelpOptions = true,
        description = "Open, close or update (--weight) a queue: --action open|close|update.")
final class OperateVerb extends QueueVerb {

    @Mixin
    QueueName queueName;

    @Option(
            names = {"-a", "--action"},
            required = true,
            description = "open, close or update.")
    String action;

    @Option(
            names = {"-w", "--weight"},
            description = "The new weight (with --action update).")
    Integer weight;

    @Override
    int run(QueueTopics topics) {
        if (!Set.of("open", "close", "update").contains(action)) {
            err().println("error: --action must be open, close or update, not \"" + action + "\"");
            return Lahar.EXIT_INPUT;
        }
        if (weight != null && !action.equals("update")) {
            err().println("error: --weight is only allowed with --action update");
            return Lahar.EXIT_INPUT;
        }
        if (action.equals("update") && weight == null) {
            err().println("error: --weight is required with --action update");
            return Lahar.EXIT_INPUT;
        }
        QueueSnapshot now = QueueSnapshot.of(topics.queues());
        Optional<Queue> stored = now.queue(queueName.name);
        if (stored.isEmpty()) {
            return notFound(queueName.name);
        }
        Queue old = stored.get();
        Queue changed;
        switch (action) {
            case "open" -> changed = old.withStatus(Queue.QueueStatus.of(QueueState.Open));
            case "close" -> changed = old.withStatus(Queue.QueueStatus.of(QueueState.Closed));
            default -> changed = old.withSpec(old.spec().withWeight(weight));
        }
        AdmissionResult<Queue> result = QueueAdmission.update(old, changed, now.context());
        if (!result.accepted()) {
            return rejected(result);
        }
        write(topics, result.object());
        out().println(Results.line(
                switch (action) {
                    case "open" -> "Opened";
                    case "close" -> "Closed";
                    default -> "Updated";
                },
                "Queue",
                queueName.name));
        return 0;
    }
}
