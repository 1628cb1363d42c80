package io.lahar.cli.priorityclass;

import io.lahar.cli.CompactedTopics;
import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar priorityclass delete}: a tombstone on {@code lahar.priority-classes}, so no consumer
 * resurrects the class; what named it takes the global default's value from the next session on.
 */
@Command(
        name = "delete",
        mixinStandardHelpOptions = true,
        description = "Delete a PriorityClass (a tombstone on lahar.priority-classes).")
final class DeleteVerb extends PriorityClassVerb {

    @Option(
            names = {"-n", "--name"},
            required = true,
            description = "PriorityClass name.")
    String name;

    @Override
    protected int run(CompactedTopics topics) {
        if (!classes(topics).containsKey(name)) {
            err().println("error: metadata.name: PriorityClass \"" + name + "\" not found");
            return Lahar.EXIT_REJECTED;
        }
        write(topics, name, null);
        out().println(Results.line("Deleted", "PriorityClass", name));
        return 0;
    }
}
