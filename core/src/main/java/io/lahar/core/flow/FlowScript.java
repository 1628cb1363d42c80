package io.lahar.core.flow;

import static io.lahar.core.sim.ScriptLines.only;
import static io.lahar.core.sim.ScriptLines.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.job.PodPhase;
import io.lahar.core.sim.ScriptException;
import io.lahar.core.sim.ScriptLines;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Reads a flow simulation script: JSON Lines, blank lines skipped. Steps:
 * {@code {"job":"b","phase":"Completed"}}, {@code {"job":"b","task":"worker","phase":"Running"}},
 * {@code {"command":"delete"}}, {@code {"advance":"30s"}}, {@code {"template":{...JobTemplate}}}.
 * Every problem names its line and field.
 */
public final class FlowScript {

    private FlowScript() {}

    public static List<FlowStep> parse(String text) {
        return ScriptLines.parse(text, "{\"job\":\"b\",\"phase\":\"Completed\"}", FlowScript::step);
    }

    private static FlowStep step(int line, JsonNode node) {
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
                PodPhase p = PodPhase.of(phase)
                        .orElseThrow(() -> new ScriptException(
                                line,
                                "phase: a task's pods are one of " + Arrays.toString(PodPhase.values()) + ", got \""
                                        + phase + "\""));
                return new FlowStep.TaskPhaseStep(line, template, task, p);
            }
            JobPhase p = JobPhase.of(phase)
                    .orElseThrow(() -> new ScriptException(
                            line,
                            "phase: expected one of " + Arrays.toString(JobPhase.values()) + ", got \"" + phase
                                    + "\""));
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
            return new FlowStep.AdvanceStep(line, ScriptLines.advance(line, node));
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
                throw new ScriptException(
                        line, "template: expected a JobTemplate with a name and a spec, got " + m.kind());
            }
            return new FlowStep.TemplateStep(line, t);
        }
        throw new ScriptException(line, "no step kind; expected one of job, command, advance, template");
    }
}
