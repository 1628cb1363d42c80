package io.lahar.core.cron;

import static io.lahar.core.sim.ScriptLines.only;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.JobPhase;
import io.lahar.core.sim.ScriptException;
import io.lahar.core.sim.ScriptLines;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Reads a CronJob simulation script: JSON Lines, blank lines skipped. Steps:
 * {@code {"advance":"5m"}}, {@code {"tick":"2026-12-01T10:05:00Z"}},
 * {@code {"job":"latest","phase":"Completed"}}, {@code {"job":"hello-29028120","deleted":true}},
 * {@code {"suspend":true}}, {@code {"command":"delete"}}. Every problem names its line and field.
 */
public final class CronScript {

    private CronScript() {}

    public static List<CronStep> parse(String text) {
        return ScriptLines.parse(text, "{\"advance\":\"5m\"}", CronScript::step);
    }

    static CronStep step(int line, JsonNode node) {
        if (node.has("advance")) {
            only(line, node, Set.of("advance"));
            return new CronStep.AdvanceStep(line, ScriptLines.advance(line, node));
        }
        if (node.has("tick")) {
            only(line, node, Set.of("tick"));
            String t = required(line, node, "tick");
            try {
                return new CronStep.TickStep(line, Instant.parse(t));
            } catch (DateTimeParseException e) {
                throw new ScriptException(
                        line, "tick: expected an RFC 3339 time such as \"2026-12-01T10:05:00Z\", got \"" + t + "\"");
            }
        }
        if (node.has("job")) {
            String job = required(line, node, "job");
            if (node.has("deleted")) {
                only(line, node, Set.of("job", "deleted"));
                if (!node.get("deleted").isBoolean() || !node.get("deleted").asBoolean()) {
                    throw new ScriptException(
                            line, "deleted: only true (the job was deleted), got " + node.get("deleted"));
                }
                return new CronStep.JobDeletedStep(line, job);
            }
            only(line, node, Set.of("job", "phase"));
            String phase = required(line, node, "phase");
            JobPhase p = JobPhase.of(phase)
                    .orElseThrow(() -> new ScriptException(
                            line,
                            "phase: expected one of " + Arrays.toString(JobPhase.values()) + ", got \"" + phase
                                    + "\""));
            return new CronStep.JobPhaseStep(line, job, p);
        }
        if (node.has("suspend")) {
            only(line, node, Set.of("suspend"));
            if (!node.get("suspend").isBoolean()) {
                throw new ScriptException(line, "suspend: expected true or false, got " + node.get("suspend"));
            }
            return new CronStep.SuspendStep(line, node.get("suspend").asBoolean());
        }
        if (node.has("command")) {
            only(line, node, Set.of("command"));
            if (!"delete".equals(node.get("command").asText())) {
                throw new ScriptException(line, "command: a CronJob knows only \"delete\", got " + node.get("command"));
            }
            return new CronStep.DeleteStep(line);
        }
        throw new ScriptException(line, "no step kind; expected one of advance, tick, job, suspend, command");
    }

    private static String required(int line, JsonNode node, String field) {
        String v = ScriptLines.text(line, node, field);
        if (v == null) {
            throw new ScriptException(line, field + ": required");
        }
        return v;
    }
}
