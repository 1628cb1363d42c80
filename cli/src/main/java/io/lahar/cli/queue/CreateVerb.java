package io.lahar.cli.queue;

import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.QueueAdmission;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lahar queue create}: vcctl's queue create, admitted by Volcano's queue webhook rules. */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        description = "Create a queue (admitted like Volcano's queue webhook; written to lahar.queues).")
final class CreateVerb extends QueueVerb {

    @Mixin
    QueueName queueName;

    @Option(
            names = {"-w", "--weight"},
            defaultValue = "1",
            description = "Relative weight (default 1).")
    int weight;

    @Option(
            names = {"-s", "--state"},
            defaultValue = "Open",
            description = "Open or Closed (default Open).")
    String state;

    @Option(
            names = {"-c", "--capability"},
            split = ",",
            paramLabel = "RESOURCE=QUANTITY",
            description = "Upper limit, e.g. cpu=8,memory=16Gi.")
    Map<String, String> capability = new LinkedHashMap<>();

    @Option(
            names = {"-p", "--parent"},
            description = "Parent queue (default root).")
    String parent;

    @Option(
            names = {"-r", "--reclaimable"},
            arity = "1",
            defaultValue = "true",
            description = "Whether other queues may reclaim what it uses beyond its share (default true).")
    boolean reclaimable;

    @Option(names = "--priority", defaultValue = "0", description = "Queue priority (default 0).")
    int priority;

    @Override
    int run(QueueTopics topics) {
        QueueSnapshot now = QueueSnapshot.of(topics.queues());
        if (now.queue(queueName.name).isPresent()) {
            err().println("error: metadata.name: queue \"" + queueName.name + "\" already exists");
            return Lahar.EXIT_REJECTED;
        }
        Queue queue = new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named(queueName.name),
                new Queue.QueueSpec(
                        weight,
                        capability.isEmpty() ? null : capability,
                        reclaimable,
                        null,
                        parent,
                        null,
                        null,
                        null,
                        null,
                        null,
                        priority),
                new Queue.QueueStatus(state, null, null, null, null, null, null, null));
        AdmissionResult<Queue> result = QueueAdmission.create(queue, now.context());
        if (!result.accepted()) {
            return rejected(result);
        }
        write(topics, result.object());
        out().println(Results.line("Created", "Queue", queueName.name));
        return 0;
    }
}
