package io.lahar.cli.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.io.PrintWriter;

/** How the verbs print: {@code -o json|yaml}, answers, and the API's errors with every reason. */
public final class Output {

    /** Exit code when the server cannot be reached or answers with a server error. */
    public static final int EXIT_UNAVAILABLE = 3;

    public enum Format {
        json,
        yaml
    }

    private Output() {}

    public static String render(JsonNode node, Format format) {
        try {
            return switch (format) {
                case json ->
                    Manifests.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n";
                case yaml -> Manifests.yamlMapper().writeValueAsString(node);
            };
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print the answer", e);
        }
    }

    public static JsonNode parse(String body) {
        try {
            return Manifests.jsonMapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("the server's answer is not JSON: " + body, e);
        }
    }

    /**
     * Prints an error answer, each violation on its own line with its path, and returns the exit
     * code: 1 for an answer about the request (rejected, unknown, unauthorised), 3 for the server's.
     */
    public static int error(PrintWriter err, String what, LaharApi.Answer answer) {
        JsonNode body;
        try {
            body = Manifests.jsonMapper().readTree(answer.body());
        } catch (IOException | RuntimeException e) {
            body = null;
        }
        String message =
                body != null && body.hasNonNull("error") ? body.get("error").asText() : answer.body();
        err.println("error: " + what + ": " + message + " (HTTP " + answer.status() + ")");
        if (body != null) {
            for (JsonNode v : body.path("violations")) {
                String path = v.path("path").asText("");
                err.println("error: " + (path.isEmpty() ? "" : path + ": ")
                        + v.path("message").asText(""));
            }
        }
        return answer.status() >= 500 ? EXIT_UNAVAILABLE : io.lahar.cli.Lahar.EXIT_REJECTED;
    }
}
