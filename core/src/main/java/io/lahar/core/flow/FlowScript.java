package io.lahar.core.flow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.job.PodPhase;
import io.lahar.core.sim.ScriptException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a flow simulation script: JSON Lines, blank lines skipped. Steps:
 * {@code {"job":"b","phase":"Completed"}}, {@code {"job":"b","task":"worker","phase":"Running"}},
 * {@code {"command":"delete"}}, {@code {"advance":"30s"}}, {@code {"template":{...JobTemplate}}}.
 * Every problem names its line and field.
 */
public final class FlowScript {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FlowScript() {
    }

    public static List<FlowStep> parse(String text) {
        List<FlowStep> steps = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (!l.isEmpty()) {
                steps.add(parseLine(i + 1, l));
            }
        }
        return steps;
    }

    static FlowStep parseLine(int line, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ScriptException(line, "not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new ScriptException(line, "a step must be a JSON object such as {\"job\":\"b\",\"phase\":\"Completed\"}");
        }
        if (node.has("job")) {
            only(line, node, Set.of("job", "task", "phase"));
            String template = text(line, node, "job");
            String phase = text(line, node, "phase");
            if (template == null) {
                throw new ScriptException(line, "job: required, the template whose job changed");
            }
            if (phase == null) {
                throw new ScriptException(line, "phase: required");
            }
            String task = text(line, node, "task");
            if (task != null) {
                PodPhase p = PodPhase.of(phase).orElseThrow(() -> new ScriptException(line,
                        "phase: a task's pods are one of " + Arrays.toString(PodPhase.values()) + ", got \"" + phase + "\""));
                return new FlowStep.TaskPhaseStep(line, template, task, p);
            }
            JobPhase p = JobPhase.of(phase).orElseThrow(() -> new ScriptException(line,
                    "phase: expected one of " + Arrays.toString(JobPhase.values()) + ", got \"" + phase + "\""));
            return new FlowStep.JobPhaseStep(line, template, p);
        }
        if (node.has("command")) {
            only(line, node, Set.of("command"));
            if (!"delete".equals(node.get("command").asText())) {
                throw new ScriptException(line, "command: a flow knows only \"delete\", got " + node.get("command"));
            }
            return new FlowStep.DeleteStep(line);
        }
        if (node.has("advance")) {
            only(line, node, Set.of("advance"));
            JsonNode v = node.get("advance");
            Optional<Duration> d = v.isTextual() ? GoDuration.parse(v.asText()) : Optional.empty();
            if (d.isEmpty() || d.get().isNegative()) {
                throw new ScriptException(line, "advance: expected a duration such as \"30s\" or \"5m\", got " + v);
            }
            return new FlowStep.AdvanceStep(line, d.get());
        }
        if (node.has("template")) {
            only(line, node, Set.of("template"));
            Manifest m;
            try {
                m = Manifests.fromTree(node.get("template"));
            } catch (ManifestException e) {
                throw new ScriptException(line, "template: " + e.getMessage());
            }
            if (!(m instanceof JobTemplate t) || t.name().isEmpty() || t.spec() == null) {
                throw new ScriptException(line, "template: expected a JobTemplate with a name and a spec, got " + m.kind());
            }
            return new FlowStep.TemplateStep(line, t);
        }
        throw new ScriptException(line, "no step kind; expected one of job, command, advance, template");
    }

    private static void only(int line, JsonNode node, Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!allowed.contains(n)) {
                throw new ScriptException(line, n + ": unknown field");
            }
        }
    }

    private static String text(int line, JsonNode node, String field) {
        JsonNode f = node.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isTextual() || f.asText().isEmpty()) {
            throw new ScriptException(line, field + ": expected a non-empty string, got " + f);
        }
        return f.asText();
    }
}
