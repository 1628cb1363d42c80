package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * {@code -o} of every list verb: the rows as the server sent them, in JSON or YAML, instead of
 * the verb's table; one option so the list verbs of all kinds say and do the same.
 */
public final class ListFormat {

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml instead of the table.")
    Output.Format format;

    /** The rows as {@code -o} asked, else as {@code table} lays them out. */
    public String render(JsonNode rows, Function<JsonNode, String> table) {
        return format != null ? Output.render(rows, format) : table.apply(rows);
    }
}
