package io.lahar.cli.queue;

import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code -o} of the verbs that show queues ({@code get}, {@code list}): one option and one check, so
 * both accept, refuse and print the same formats.
 */
final class QueueOutput {

    private static final Set<String> OUTPUTS = Set.of("table", "json", "yaml");

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table (default), json or yaml.")
    String output;

    /** False, with the reason on {@code err}, for a format this does not print. */
    boolean valid(PrintWriter err) {
        if (OUTPUTS.contains(output)) {
            return true;
        }
        err.println("error: --output must be table, json or yaml, not \"" + output + "\"");
        return false;
    }

    String render(List<QueueView> queues, boolean single) {
        return QueueTable.render(output, queues, single);
    }
}
