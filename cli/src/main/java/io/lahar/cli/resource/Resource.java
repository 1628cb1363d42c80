package io.lahar.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One kind of object the streams-app serves under {@code /api/v1/<plural>}: the verbs of
 * {@code lahar flow}, {@code lahar jobtemplate} and {@code lahar cronjob} differ only in this, and
 * {@link ResourceCli} builds their commands from it.
 *
 * @param command  the CLI command ({@code flow})
 * @param kind     the manifest kind ({@code JobFlow}), also how the verbs name the object ("Created JobFlow: ns/name", as vcctl)
 * @param plural   the collection's path segment ({@code jobflows})
 * @param table    the list's table of the rows; the instant gives the Age column
 * @param describe the description {@code view} prints without {@code -o}
 * @param help     what each verb's usage says
 * @param filters  the list filters besides the namespace, each an option of {@code list} and a query parameter
 */
public record Resource(
        String command,
        String kind,
        String plural,
        BiFunction<JsonNode, Instant, String> table,
        Function<JsonNode, String> describe,
        Help help,
        List<Filter> filters) {

    /** The usage descriptions of the command and of each verb. */
    public record Help(String command, String create, String list, String view, String delete) {}

    /**
     * A list filter: the option {@code --name} (and {@code -shortName}) sends the query parameter
     * {@code name}.
     */
    public record Filter(String name, char shortName, String description) {}

    /** {@code /api/v1/jobflows}. */
    public String collection() {
        return "/api/v1/" + plural;
    }
}
