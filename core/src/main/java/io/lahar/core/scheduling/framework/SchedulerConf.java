package io.lahar.core.scheduling.framework;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lahar.core.scheduling.api.Problem;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's scheduler configuration ({@code volcano-scheduler.conf}): the actions in order, the
 * tiers of plugins with their switches and arguments, and per-action arguments
 * ({@code configurations:}).
 */
public record SchedulerConf(List<String> actions, List<Tier> tiers, Map<String, Arguments> configurations) {

    /**
     * Volcano's default configuration: the one compiled into the scheduler
     * ({@code DefaultSchedulerConf} in pkg/scheduler/util.go), used when no volcano-scheduler.conf is
     * given. It has no binpack: nodeorder's least-allocated spreads pods. (The Helm chart's
     * configuration adds binpack, which with weight 1 cancels least-allocated; name it in a conf
     * file to get that.)
     */
    public static final String DEFAULT_YAML = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: conformance
            - plugins:
              - name: overcommit
              - name: drf
              - name: predicates
              - name: proportion
              - name: nodeorder
            """;

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public SchedulerConf {
        actions = List.copyOf(actions);
        tiers = List.copyOf(tiers);
        configurations = configurations == null ? Map.of() : Map.copyOf(configurations);
    }

    public static SchedulerConf defaults() {
        return parse(DEFAULT_YAML);
    }

    public static SchedulerConf of(String actions, Tier... tiers) {
        return new SchedulerConf(splitActions(actions), List.of(tiers), Map.of());
    }

    public boolean hasAction(String name) {
        return actions.contains(name);
    }

    public Arguments actionArguments(String action) {
        return configurations.getOrDefault(action, Arguments.EMPTY);
    }

    private static List<String> splitActions(String s) {
        List<String> out = new ArrayList<>();
        for (String a : s.split(",")) {
            if (!a.isBlank()) out.add(a.strip());
        }
        return out;
    }

    /** Parses and checks a configuration against the built-in actions and plugins. */
    public static SchedulerConf parse(String yaml) {
        return parse(yaml, PluginRegistry.defaults());
    }

    /**
     * Parses a configuration; every unknown action, plugin, switch or key and every bad argument
     * is reported together with its path.
     *
     * @throws InvalidConfException listing every problem
     */
    public static SchedulerConf parse(String yaml, PluginRegistry registry) {
        List<Problem> problems = new ArrayList<>();
        JsonNode root;
        try {
            root = YAML.readTree(yaml == null ? "" : yaml);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidConfException(List.of(new Problem("$", "not YAML: " + e.getOriginalMessage())));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new InvalidConfException(List.of(new Problem("$", "empty configuration")));
        }
        if (!root.isObject()) {
            throw new InvalidConfException(List.of(new Problem("$", "expected a mapping with actions and tiers")));
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!Set.of("actions", "tiers", "configurations", "metrics").contains(f)) {
                problems.add(new Problem(f, "unknown key"));
            }
        }
        List<String> actions = new ArrayList<>();
        JsonNode a = root.get("actions");
        if (a == null || !a.isTextual() || a.asText().isBlank()) {
            problems.add(new Problem(
                    "actions", "expected a comma-separated list of actions, e.g. \"enqueue, allocate, backfill\""));
        } else {
            Set<String> seen = new HashSet<>();
            for (String name : splitActions(a.asText())) {
                if (!registry.hasAction(name)) {
                    problems.add(new Problem(
                            "actions", "unknown action \"" + name + "\" (known: " + registry.actionNames() + ")"));
                } else if (!seen.add(name)) {
                    problems.add(new Problem("actions", "action \"" + name + "\" listed twice"));
                } else {
                    actions.add(name);
                }
            }
        }
        List<Tier> tiers = new ArrayList<>();
        JsonNode t = root.get("tiers");
        if (t == null || !t.isArray()) {
            problems.add(new Problem("tiers", "expected a list of tiers, each with plugins"));
        } else {
            Set<String> seenPlugins = new HashSet<>();
            for (int i = 0; i < t.size(); i++) {
                tiers.add(parseTier(t.get(i), "tiers[" + i + "]", registry, seenPlugins, problems));
            }
        }
        Map<String, Arguments> configurations = new LinkedHashMap<>();
        JsonNode c = root.get("configurations");
        if (c != null && !c.isNull()) {
            if (!c.isArray()) {
                problems.add(new Problem("configurations", "expected a list of {name, arguments}"));
            } else {
                for (int i = 0; i < c.size(); i++) {
                    JsonNode e = c.get(i);
                    String p = "configurations[" + i + "]";
                    String name = e.path("name").asText("");
                    if (!registry.hasAction(name)) {
                        problems.add(new Problem(p + ".name", "unknown action \"" + name + "\""));
                        continue;
                    }
                    Arguments args = parseArguments(e.get("arguments"), p + ".arguments", problems);
                    try {
                        registry.newAction(name).readArguments(args);
                        for (String unknown : args.unread()) {
                            problems.add(new Problem(
                                    p + ".arguments." + unknown, "unknown argument of action \"" + name + "\""));
                        }
                    } catch (IllegalArgumentException ex) {
                        problems.add(new Problem(p + ".arguments", ex.getMessage()));
                    }
                    configurations.put(name, args);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfException(problems);
        }
        return new SchedulerConf(actions, tiers, configurations);
    }

    private static Tier parseTier(
            JsonNode tier, String path, PluginRegistry registry, Set<String> seen, List<Problem> problems) {
        List<PluginOption> plugins = new ArrayList<>();
        JsonNode ps = tier == null ? null : tier.get("plugins");
        if (ps == null || !ps.isArray()) {
            problems.add(new Problem(path + ".plugins", "expected a list of plugins"));
            return new Tier(plugins);
        }
        for (int j = 0; j < ps.size(); j++) {
            JsonNode p = ps.get(j);
            String pp = path + ".plugins[" + j + "]";
            if (!p.isObject()) {
                problems.add(new Problem(pp, "expected a mapping with a name"));
                continue;
            }
            String name = p.path("name").asText("");
            boolean known = registry.hasPlugin(name);
            if (!known) {
                problems.add(new Problem(
                        pp + ".name",
                        name.isEmpty()
                                ? "a plugin needs a name"
                                : "unknown plugin \"" + name + "\" (known: " + registry.pluginNames() + ")"));
            } else if (!seen.add(name)) {
                problems.add(new Problem(pp + ".name", "plugin \"" + name + "\" configured twice"));
            }
            Map<Extension, Boolean> switches = new EnumMap<>(Extension.class);
            Arguments args = Arguments.EMPTY;
            for (Map.Entry<String, JsonNode> f : p.properties()) {
                String key = f.getKey();
                if (key.equals("name")) {
                    continue;
                }
                if (key.equals("arguments")) {
                    args = parseArguments(f.getValue(), pp + ".arguments", problems);
                    continue;
                }
                // Volcano's YAML spells most switches enableX; accept enabledX as well.
                String normal =
                        key.startsWith("enable") && !key.startsWith("enabled") ? "enabled" + key.substring(6) : key;
                Extension e = Extension.byConfKey(normal);
                if (e == null) {
                    problems.add(new Problem(pp + "." + key, "unknown key"));
                } else if (!f.getValue().isBoolean()) {
                    problems.add(new Problem(pp + "." + key, "expected true or false, got " + f.getValue()));
                } else {
                    switches.put(e, f.getValue().booleanValue());
                }
            }
            if (Boolean.TRUE.equals(switches.get(Extension.HIERARCHY)) && known && !registry.supportsHierarchy(name)) {
                problems.add(new Problem(
                        pp + ".enableHierarchy",
                        "plugin \"" + name + "\" does not support hierarchical queues here" + " (supported by: "
                                + String.join(", ", registry.hierarchicalNames()) + ")"));
            }
            PluginOption option = new PluginOption(name, switches, args);
            if (known) {
                try {
                    registry.newPlugin(option); // reads the arguments, so a bad one is a conf problem now
                    for (String unknown : args.unread()) {
                        problems.add(new Problem(
                                pp + ".arguments." + unknown, "unknown argument of plugin \"" + name + "\""));
                    }
                } catch (IllegalArgumentException ex) {
                    problems.add(new Problem(pp + ".arguments", ex.getMessage()));
                }
            }
            plugins.add(option);
        }
        return new Tier(plugins);
    }

    private static Arguments parseArguments(JsonNode node, String path, List<Problem> problems) {
        if (node == null || node.isNull()) {
            return Arguments.EMPTY;
        }
        if (!node.isObject()) {
            problems.add(new Problem(path, "expected a mapping"));
            return Arguments.EMPTY;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            JsonNode v = f.getValue();
            if (v.isNumber()) m.put(f.getKey(), v.numberValue());
            else if (v.isBoolean()) m.put(f.getKey(), v.booleanValue());
            else if (v.isValueNode()) m.put(f.getKey(), v.asText());
            else m.put(f.getKey(), v.toString());
        }
        return new Arguments(m);
    }
}
