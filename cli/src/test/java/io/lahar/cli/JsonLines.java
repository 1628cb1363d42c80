package io.lahar.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** Reading what {@code lahar simulate} prints: one JSON object a line. */
final class JsonLines {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLines() {}

    static List<JsonNode> of(String output) {
        return output.lines()
                .map(l -> {
                    try {
                        return JSON.readTree(l);
                    } catch (Exception e) {
                        throw new AssertionError(l, e);
                    }
                })
                .toList();
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
