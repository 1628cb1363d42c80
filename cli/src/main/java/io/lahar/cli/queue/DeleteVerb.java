package io.lahar.cli.queue;

import io.lahar.cli.Results;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.QueueAdmission;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lahar queue delete}: admitted like Volcano's webhook (not root or default, no child
 * queues), then a tombstone on {@code lahar.queues} so no consumer resurrects the queue.
 */
@Command(
        name = "delete",
        mixinStandardHelpOptions = true,
        description = "Delete a queue (a tombstone on lahar.queues).")
final class DeleteVerb extends QueueVerb {

    @Mixin
    QueueName queueName;

    @Override
    int run(QueueTopics topics) {
        QueueSnapshot now = QueueSnapshot.of(topics.queues());
        Queue target = now.queue(queueName.name)
                .orElse(new Queue(Queue.API_VERSION, Queue.KIND, ObjectMeta.named(queueName.name), null, null));
        AdmissionResult<Queue> result = QueueAdmission.delete(target, now.context());
        if (!result.accepted()) {
            return rejected(result);
        }
        topics.write(queueName.name, null);
        out().println(Results.line("Deleted", "Queue", queueName.name));
        return 0;
    }
}
