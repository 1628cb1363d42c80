package io.lahar.core.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the simulation scripts (jobs, flows, CronJobs) share: JSON Lines, one object a line,
 * blank lines skipped, every problem a {@link ScriptException} naming its line and field.
 */
public final class ScriptLines {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads one step from its line's JSON object. */
    @FunctionalInterface
    public interface StepReader<T> {
        T read(int line, JsonNode node);
    }

    private ScriptLines() {}

    /** @param example a step of the script's kind, for the message when a line is no JSON object */
    public static <T> List<T> parse(String text, String example, StepReader<T> reader) {
        List<T> steps = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (!l.isEmpty()) {
                steps.add(reader.read(i + 1, object(i + 1, l, example)));
            }
        }
        return steps;
    }

    public static JsonNode object(int line, String text, String example) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ScriptException(line, "not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new ScriptException(line, "a step must be a JSON object such as " + example);
        }
        return node;
    }

    /** Refuses a field the step does not know. */
    public static void only(int line, JsonNode node, Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!allowed.contains(n)) {
                throw new ScriptException(line, n + ": unknown field");
            }
        }
    }

    /** The non-empty string of {@code field}, null when absent. */
    public static String text(int line, JsonNode node, String field) {
        JsonNode f = node.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isTextual() || f.asText().isEmpty()) {
            throw new ScriptException(line, field + ": expected a non-empty string, got " + f);
        }
        return f.asText();
    }

    /** {@code {"advance":"30s"}}'s duration: a Go duration, not negative. */
    public static Duration advance(int line, JsonNode node) {
        JsonNode v = node.get("advance");
        Optional<Duration> d = v.isTextual() ? GoDuration.parse(v.asText()) : Optional.empty();
        if (d.isEmpty() || d.get().isNegative()) {
            throw new ScriptException(line, "advance: expected a duration such as \"30s\" or \"5m\", got " + v);
        }
        return d.get();
    }
}
