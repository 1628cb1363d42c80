package io.lahar.emulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A group of identical simulated nodes: how many, their name prefix, what each offers (cpu, memory,
 * {@code nvidia.com/gpu}, pod slots) and how they are labelled and tainted.
 *
 * <p>Parsed from a compact string for the command line, groups separated by {@code +}, {@code ;}
 * or blanks: {@code 4x{cpu=8,memory=32Gi,gpu=0}} or
 * {@code 3x{cpu=8,memory=32Gi}+2x{name=gpu,cpu=16,memory=64Gi,gpu=4,label=pool=gpu,taint=nvidia.com/gpu=present:NoSchedule}}.
 * Keys: {@code cpu}, {@code memory}, {@code gpu}, {@code pods}, {@code name}, and repeatable
 * {@code label=key=value} and {@code taint=key[=value]:Effect}; a group without braces gets the
 * defaults ({@link #DEFAULT}).
 */
public record NodeSpec(
        int count,
        String namePrefix,
        String cpu,
        String memory,
        int gpus,
        int pods,
        Map<String, String> labels,
        List<Taint> taints) {

    /** A node taint, as kubectl taint writes it: {@code key=value:Effect}. */
    public record Taint(String key, String value, String effect) {
        static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    }

    /** One node with 8 cores, 32 GiB, no GPU and the kubelet's default of 110 pods. */
    public static final NodeSpec DEFAULT = new NodeSpec(1, "node", "8", "32Gi", 0, 110, Map.of(), List.of());

    private static final Pattern QUANTITY = Pattern.compile("^(\\d+(\\.\\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$");
    private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
    private static final Pattern LABEL_KEY =
            Pattern.compile("^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$");
    private static final Pattern LABEL_VALUE = Pattern.compile("^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$");

    public NodeSpec {
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
    }

    public NodeSpec withCount(int newCount) {
        return new NodeSpec(newCount, namePrefix, cpu, memory, gpus, pods, labels, taints);
    }

    /** {@code n} default nodes: the simplest cluster. */
    public static List<NodeSpec> defaults(int n) {
        return List.of(DEFAULT.withCount(n));
    }

    /**
     * Parses a node specification; every problem is reported at once, each with its place
     * ({@code nodes[1].memory: ...}).
     *
     * @throws InvalidNodeSpecException naming every reason the text is not a node specification
     */
    public static List<NodeSpec> parse(String text) {
        List<String> problems = new ArrayList<>();
        List<NodeSpec> groups = new ArrayList<>();
        if (text == null || text.isBlank()) {
            throw new InvalidNodeSpecException(List.of("nodes: empty; expected e.g. 4x{cpu=8,memory=32Gi,gpu=0}"));
        }
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '+' || c == ';' || Character.isWhitespace(c)) {
                i++;
                continue;
            }
            String where = "nodes[" + groups.size() + "]";
            int start = i;
            while (i < n && Character.isDigit(text.charAt(i))) {
                i++;
            }
            int count = 1;
            if (i > start) {
                try {
                    count = Integer.parseInt(text.substring(start, i));
                } catch (NumberFormatException e) {
                    problems.add(where + ".count: \"" + text.substring(start, i) + "\" is too large");
                }
                if (i < n && (text.charAt(i) == 'x' || text.charAt(i) == 'X' || text.charAt(i) == '*')) {
                    i++;
                }
            }
            String body = "";
            if (i < n && text.charAt(i) == '{') {
                int close = text.indexOf('}', i);
                if (close < 0) {
                    problems.add(where + ": '{' at offset " + i + " is never closed");
                    break;
                }
                body = text.substring(i + 1, close);
                i = close + 1;
            } else if (i == start) {
                problems.add(where + ": unexpected '" + c + "' at offset " + i
                        + "; expected a count, 'Nx' or '{key=value,...}'");
                i++;
                continue;
            }
            groups.add(parseGroup(where, count, body, problems));
        }
        if (groups.isEmpty() && problems.isEmpty()) {
            problems.add("nodes: no node group in \"" + text + "\"");
        }
        if (!problems.isEmpty()) {
            throw new InvalidNodeSpecException(problems);
        }
        return List.copyOf(groups);
    }

    private static NodeSpec parseGroup(String where, int count, String body, List<String> problems) {
        String prefix = DEFAULT.namePrefix();
        String cpu = DEFAULT.cpu();
        String memory = DEFAULT.memory();
        int gpus = DEFAULT.gpus();
        int pods = DEFAULT.pods();
        Map<String, String> labels = new LinkedHashMap<>();
        List<Taint> taints = new ArrayList<>();
        if (count < 1) {
            problems.add(where + ".count: must be at least 1, got " + count);
        }
        for (String entry : body.split(",")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int eq = trimmed.indexOf('=');
            if (eq <= 0) {
                problems.add(where + ": \"" + trimmed + "\" is not key=value");
                continue;
            }
            String key = trimmed.substring(0, eq).trim().toLowerCase();
            String value = trimmed.substring(eq + 1).trim();
            String at = where + "." + key;
            switch (key) {
                case "cpu" -> cpu = positiveQuantity(at, value, problems, cpu);
                case "memory", "mem" -> memory = positiveQuantity(at, value, problems, memory);
                case "gpu", "gpus", "nvidia.com/gpu" -> gpus = nonNegativeInt(at, value, problems, gpus);
                case "pods" -> pods = nonNegativeInt(at, value, problems, pods);
                case "name", "prefix" -> {
                    if (DNS_LABEL.matcher(value).matches() && value.length() <= 50) {
                        prefix = value;
                    } else {
                        problems.add(at + ": \"" + value
                                + "\" is not a DNS label (lower-case letters, digits, '-', at most 50)");
                    }
                }
                case "label" -> parseLabel(at, value, labels, problems);
                case "taint" -> parseTaint(at, value, taints, problems);
                default ->
                    problems.add(at + ": unknown key; known keys are cpu, memory, gpu, pods, name, label, taint");
            }
        }
        return new NodeSpec(Math.max(count, 1), prefix, cpu, memory, gpus, pods, labels, taints);
    }

    private static String positiveQuantity(String at, String value, List<String> problems, String fallback) {
        var m = QUANTITY.matcher(value);
        if (!m.matches()) {
            problems.add(at + ": \"" + value + "\" is not a Kubernetes quantity (e.g. 8, 500m, 32Gi)");
            return fallback;
        }
        if (Double.parseDouble(m.group(1)) <= 0) {
            problems.add(at + ": must be more than zero, got \"" + value + "\"");
            return fallback;
        }
        return value;
    }

    private static int nonNegativeInt(String at, String value, List<String> problems, int fallback) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < 0) {
                problems.add(at + ": must not be negative, got " + parsed);
                return fallback;
            }
            return parsed;
        } catch (NumberFormatException e) {
            problems.add(at + ": \"" + value + "\" is not a whole number");
            return fallback;
        }
    }

    private static void parseLabel(String at, String value, Map<String, String> labels, List<String> problems) {
        int eq = value.indexOf('=');
        String key = eq < 0 ? value : value.substring(0, eq);
        String labelValue = eq < 0 ? "" : value.substring(eq + 1);
        if (!LABEL_KEY.matcher(key).matches()) {
            problems.add(at + ": \"" + key + "\" is not a label key");
        } else if (!LABEL_VALUE.matcher(labelValue).matches() || labelValue.length() > 63) {
            problems.add(at + "[" + key + "]: \"" + labelValue + "\" is not a label value");
        } else {
            labels.put(key, labelValue);
        }
    }

    private static void parseTaint(String at, String value, List<Taint> taints, List<String> problems) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(at + ": \"" + value + "\" is not key[=value]:Effect");
            return;
        }
        String effect = value.substring(colon + 1);
        String keyValue = value.substring(0, colon);
        int eq = keyValue.indexOf('=');
        String key = eq < 0 ? keyValue : keyValue.substring(0, eq);
        String taintValue = eq < 0 ? "" : keyValue.substring(eq + 1);
        boolean ok = true;
        if (!LABEL_KEY.matcher(key).matches()) {
            problems.add(at + ": \"" + key + "\" is not a taint key");
            ok = false;
        }
        if (!LABEL_VALUE.matcher(taintValue).matches()) {
            problems.add(at + "[" + key + "]: \"" + taintValue + "\" is not a taint value");
            ok = false;
        }
        if (!Taint.EFFECTS.contains(effect)) {
            problems.add(
                    at + "[" + key + "]: effect \"" + effect + "\" is not NoSchedule, PreferNoSchedule or NoExecute");
            ok = false;
        }
        if (ok) {
            taints.add(new Taint(key, taintValue, effect));
        }
    }
}
