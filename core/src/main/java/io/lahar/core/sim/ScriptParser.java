package io.lahar.core.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Action;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.PodPhase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a simulate script: JSON Lines, one step a line, blank lines skipped. Every problem is
 * reported with its line and the field at fault.
 */
public final class ScriptParser {

    private static final Set<String> KINDS = Set.of("pod", "command", "advance", "update", "podgroup", "settle");

    private ScriptParser() {}

    public static List<ScriptStep> parse(String text) {
        return ScriptLines.parse(text, "{\"advance\":\"30s\"}", ScriptParser::step);
    }

    private static ScriptStep step(int line, JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        // A command names its target pod with a "pod" field: "command" decides the kind.
        List<String> kinds = keys.contains("command")
                ? List.of("command")
                : keys.stream().filter(KINDS::contains).toList();
        if (kinds.size() != 1) {
            throw new ScriptException(
                    line,
                    kinds.isEmpty()
                            ? "no step kind; expected one of pod, command, advance, update, podgroup, settle"
                            : "several step kinds in one line: " + kinds);
        }
        String kind = kinds.get(0);
        JsonNode v = node.get(kind);
        return switch (kind) {
            case "pod" -> {
                only(line, node, Set.of("pod"), "");
                yield pod(line, v);
            }
            case "command" -> command(line, node);
            case "advance" -> {
                only(line, node, Set.of("advance"), "");
                yield new ScriptStep.AdvanceStep(line, ScriptLines.advance(line, node));
            }
            case "update" -> {
                only(line, node, Set.of("update"), "");
                yield update(line, v);
            }
            case "podgroup" -> {
                only(line, node, Set.of("podgroup"), "");
                PodGroupPhase phase = v.isTextual()
                        ? Arrays.stream(PodGroupPhase.values())
                                .filter(p -> p.name().equals(v.asText()))
                                .findFirst()
                                .orElse(null)
                        : null;
                if (phase == null) {
                    throw new ScriptException(
                            line,
                            "podgroup: expected one of " + Arrays.toString(PodGroupPhase.values()) + ", got " + v);
                }
                yield new ScriptStep.PodGroupStep(line, phase);
            }
            default -> {
                only(line, node, Set.of("settle"), "");
                if (!v.isBoolean() || !v.asBoolean()) {
                    throw new ScriptException(line, "settle: expected true, got " + v);
                }
                yield new ScriptStep.SettleStep(line);
            }
        };
    }

    private static ScriptStep pod(int line, JsonNode v) {
        if (!v.isObject()) {
            throw new ScriptException(
                    line, "pod: expected an object such as {\"task\":\"worker\",\"index\":0,\"phase\":\"Running\"}");
        }
        only(line, v, Set.of("task", "index", "phase", "exitCode", "restartCount", "evicted"), "pod.");
        String task = text(line, v, "task", "pod.task");
        if (task == null) {
            throw new ScriptException(line, "pod.task: required");
        }
        Integer index = integer(line, v, "index", "pod.index");
        if (index == null || index < 0) {
            throw new ScriptException(line, "pod.index: required, a number >= 0");
        }
        PodPhase phase = null;
        String ph = text(line, v, "phase", "pod.phase");
        if (ph != null) {
            phase = PodPhase.of(ph)
                    .orElseThrow(() -> new ScriptException(
                            line,
                            "pod.phase: expected one of " + Arrays.toString(PodPhase.values()) + ", got \"" + ph
                                    + "\""));
        }
        Integer exitCode = integer(line, v, "exitCode", "pod.exitCode");
        Integer restarts = integer(line, v, "restartCount", "pod.restartCount");
        if (restarts != null && restarts < 0) {
            throw new ScriptException(line, "pod.restartCount: must be >= 0");
        }
        boolean evicted = false;
        if (v.has("evicted")) {
            if (!v.get("evicted").isBoolean()) {
                throw new ScriptException(line, "pod.evicted: expected true or false");
            }
            evicted = v.get("evicted").asBoolean();
        }
        if (evicted && (phase != null || exitCode != null || restarts != null)) {
            throw new ScriptException(line, "pod: an evicted pod is gone; give evicted alone");
        }
        if (!evicted && phase == null && restarts == null) {
            throw new ScriptException(line, "pod: give a phase, a restartCount, or evicted:true");
        }
        if (exitCode != null && phase != PodPhase.Failed && phase != PodPhase.Succeeded) {
            throw new ScriptException(line, "pod.exitCode: only a Failed or Succeeded pod has an exit code");
        }
        return new ScriptStep.PodStep(line, task, index, phase, exitCode, restarts, evicted);
    }

    private static ScriptStep command(int line, JsonNode node) {
        only(line, node, Set.of("command", "task", "pod", "index"), "");
        JsonNode c = node.get("command");
        Action action = c.isTextual() ? Action.of(c.asText()).orElse(null) : null;
        if (action == null) {
            throw new ScriptException(line, "command: expected an action name such as \"RestartJob\", got " + c);
        }
        String task = text(line, node, "task", "task");
        String pod = text(line, node, "pod", "pod");
        Integer index = integer(line, node, "index", "index");
        if (index != null) {
            if (task == null || pod != null) {
                throw new ScriptException(line, "index: names a pod together with task (or give pod:\"worker-0\")");
            }
            pod = task + "-" + index;
        }
        if (action == Action.RESTART_TASK && task == null) {
            throw new ScriptException(line, "task: RestartTask needs the task to restart");
        }
        if (action == Action.RESTART_POD && pod == null) {
            throw new ScriptException(line, "pod: RestartPod needs the pod to restart, as \"worker-0\"");
        }
        if (action == Action.RESTART_PARTITION && pod == null) {
            throw new ScriptException(
                    line, "pod: RestartPartition needs a pod of the partition to restart, as \"worker-0\"");
        }
        return new ScriptStep.CommandStep(line, action, task, pod);
    }

    private static ScriptStep update(int line, JsonNode v) {
        if (!v.isObject()) {
            throw new ScriptException(line, "update: expected an object such as {\"minAvailable\":2}");
        }
        only(line, v, Set.of("minAvailable", "priorityClassName", "tasks"), "update.");
        Integer min = integer(line, v, "minAvailable", "update.minAvailable");
        String pc = text(line, v, "priorityClassName", "update.priorityClassName");
        List<ScriptStep.UpdateStep.TaskScale> tasks = new ArrayList<>();
        if (v.has("tasks")) {
            JsonNode ts = v.get("tasks");
            if (!ts.isArray()) {
                throw new ScriptException(line, "update.tasks: expected a list");
            }
            for (int i = 0; i < ts.size(); i++) {
                JsonNode t = ts.get(i);
                String at = "update.tasks[" + i + "]";
                if (!t.isObject()) {
                    throw new ScriptException(line, at + ": expected an object");
                }
                only(line, t, Set.of("name", "replicas", "minAvailable"), at + ".");
                String name = text(line, t, "name", at + ".name");
                if (name == null) {
                    throw new ScriptException(line, at + ".name: required");
                }
                tasks.add(new ScriptStep.UpdateStep.TaskScale(
                        name,
                        integer(line, t, "replicas", at + ".replicas"),
                        integer(line, t, "minAvailable", at + ".minAvailable")));
            }
        }
        return new ScriptStep.UpdateStep(line, min, pc, tasks);
    }

    private static void only(int line, JsonNode node, Set<String> allowed, String prefix) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!allowed.contains(n)) {
                throw new ScriptException(line, prefix + n + ": unknown field");
            }
        }
    }

    private static String text(int line, JsonNode node, String field, String path) {
        JsonNode f = node.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isTextual() || f.asText().isEmpty()) {
            throw new ScriptException(line, path + ": expected a non-empty string, got " + f);
        }
        return f.asText();
    }

    private static Integer integer(int line, JsonNode node, String field, String path) {
        JsonNode f = node.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isIntegralNumber() || !f.canConvertToInt()) {
            throw new ScriptException(line, path + ": expected a whole number, got " + f);
        }
        return f.asInt();
    }
}
