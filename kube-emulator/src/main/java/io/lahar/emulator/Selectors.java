package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request's {@code labelSelector} and {@code fieldSelector}, evaluated as kube-apiserver does.
 * fabric8's store understands only equality label selectors and {@code metadata.name} fields; it
 * drops set-based requirements (so {@code app in (a,b)} would select everything) and selects
 * nothing for any other field. We take both selectors off the request, let the store list or
 * watch everything of the kind, and select here.
 *
 * <p>Labels: {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)},
 * {@code k}, {@code !k}, {@code k>n}, {@code k<n}. Fields: {@code path=v}, {@code path==v},
 * {@code path!=v} for any dotted path ({@code spec.nodeName}, {@code status.phase},
 * {@code metadata.namespace}); a missing field reads as the empty string, so
 * {@code spec.nodeName=} selects unscheduled pods as it does on a real cluster.
 */
final class Selectors {

    private sealed interface Requirement {
        boolean matches(JsonNode object);
    }

    private record LabelIn(String key, Set<String> values, boolean negated) implements Requirement {
        @Override
        public boolean matches(JsonNode object) {
            JsonNode value = object.path("metadata").path("labels").get(key);
            boolean in = value != null && !value.isNull() && values.contains(value.asText());
            return negated != in;
        }
    }

    private record LabelExists(String key, boolean negated) implements Requirement {
        @Override
        public boolean matches(JsonNode object) {
            JsonNode value = object.path("metadata").path("labels").get(key);
            return negated != (value != null && !value.isNull());
        }
    }

    private record LabelCompare(String key, long bound, boolean greater) implements Requirement {
        @Override
        public boolean matches(JsonNode object) {
            JsonNode value = object.path("metadata").path("labels").get(key);
            if (value == null || value.isNull()) {
                return false;
            }
            try {
                long number = Long.parseLong(value.asText());
                return greater ? number > bound : number < bound;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    /** {@code steps}: the field's dotted path, split once. */
    private record FieldEquals(String[] steps, String value, boolean negated) implements Requirement {
        @Override
        public boolean matches(JsonNode object) {
            JsonNode node = object;
            for (String step : steps) {
                node = node.path(step);
            }
            String actual = node.isMissingNode() || node.isNull() ? "" : node.asText();
            return negated != actual.equals(value);
        }
    }

    private static final String KEY = "([A-Za-z0-9][-A-Za-z0-9_./]*)";
    private static final String VALUE = "([-A-Za-z0-9_.]*)";
    private static final Pattern SET = Pattern.compile("^" + KEY + "\\s+(in|notin)\\s*\\(([^)]*)\\)$");
    private static final Pattern EQUALS = Pattern.compile("^" + KEY + "\\s*(==|=|!=)\\s*" + VALUE + "$");
    private static final Pattern COMPARE = Pattern.compile("^" + KEY + "\\s*([<>])\\s*(-?\\d+)$");
    private static final Pattern EXISTS = Pattern.compile("^(!?)\\s*" + KEY + "$");
    private static final Pattern FIELD = Pattern.compile("^([A-Za-z0-9][A-Za-z0-9_.]*)\\s*(==|=|!=)(.*)$");

    /** An array: every watcher's sender runs through it for every event. */
    private final Requirement[] requirements;

    private Selectors(List<Requirement> requirements) {
        this.requirements = requirements.toArray(new Requirement[0]);
    }

    boolean matches(JsonNode object) {
        for (Requirement requirement : requirements) {
            if (!requirement.matches(object)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The selectors in a request's query, or empty if it has none.
     *
     * @throws IllegalArgumentException naming every requirement that does not parse
     */
    static Optional<Selectors> fromQuery(String query) {
        String labels = param(query, "labelSelector");
        String fields = param(query, "fieldSelector");
        if (labels == null && fields == null) {
            return Optional.empty();
        }
        List<Requirement> requirements = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (labels != null) {
            for (String part : splitTopLevel(labels)) {
                parseLabel(part.trim(), requirements, problems);
            }
        }
        if (fields != null) {
            for (String part : splitTopLevel(fields)) {
                parseField(part.trim(), requirements, problems);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return Optional.of(new Selectors(requirements));
    }

    /**
     * A LabelSelector object ({@code matchLabels}, {@code matchExpressions}), as a webhook's
     * namespaceSelector or objectSelector is written; an empty or absent one selects everything.
     *
     * @throws IllegalArgumentException for an operator that is not In, NotIn, Exists or DoesNotExist
     */
    static Selectors ofLabelSelector(JsonNode selector) {
        List<Requirement> requirements = new ArrayList<>();
        selector.path("matchLabels")
                .properties()
                .forEach(e -> requirements.add(
                        new LabelIn(e.getKey(), Set.of(e.getValue().asText()), false)));
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText();
            Set<String> values = new java.util.HashSet<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            String operator = expression.path("operator").asText();
            requirements.add(
                    switch (operator) {
                        case "In" -> new LabelIn(key, Set.copyOf(values), false);
                        case "NotIn" -> new LabelIn(key, Set.copyOf(values), true);
                        case "Exists" -> new LabelExists(key, false);
                        case "DoesNotExist" -> new LabelExists(key, true);
                        default ->
                            throw new IllegalArgumentException(
                                    "\"" + operator + "\" is not a valid label selector operator");
                    });
        }
        return new Selectors(requirements);
    }

    /** The query without its selectors (still URL-encoded), with a leading '?' if anything is left. */
    static String withoutSelectors(String query) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        List<String> kept = new ArrayList<>();
        for (String pair : query.split("&")) {
            String name = pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair;
            if (!name.equals("labelSelector") && !name.equals("fieldSelector") && !pair.isEmpty()) {
                kept.add(pair);
            }
        }
        return kept.isEmpty() ? "" : "?" + String.join("&", kept);
    }

    private static void parseLabel(String text, List<Requirement> requirements, List<String> problems) {
        if (text.isEmpty()) {
            return;
        }
        Matcher m;
        if ((m = SET.matcher(text)).matches()) {
            Set<String> values = Set.copyOf(List.of(m.group(3).split("\\s*,\\s*")).stream()
                    .map(String::trim)
                    .filter(v -> !v.isEmpty())
                    .toList());
            requirements.add(new LabelIn(m.group(1), values, m.group(2).equals("notin")));
        } else if ((m = EQUALS.matcher(text)).matches()) {
            requirements.add(
                    new LabelIn(m.group(1), Set.of(m.group(3)), m.group(2).equals("!=")));
        } else if ((m = COMPARE.matcher(text)).matches()) {
            requirements.add(new LabelCompare(
                    m.group(1), Long.parseLong(m.group(3)), m.group(2).equals(">")));
        } else if ((m = EXISTS.matcher(text)).matches()) {
            requirements.add(new LabelExists(m.group(2), m.group(1).equals("!")));
        } else {
            problems.add("labelSelector: \"" + text + "\" is not a label requirement");
        }
    }

    private static void parseField(String text, List<Requirement> requirements, List<String> problems) {
        if (text.isEmpty()) {
            return;
        }
        Matcher m = FIELD.matcher(text);
        if (m.matches()) {
            requirements.add(new FieldEquals(
                    m.group(1).split("\\."), m.group(3).trim(), m.group(2).equals("!=")));
        } else {
            problems.add("fieldSelector: \"" + text + "\" is not a field requirement (path=value or path!=value)");
        }
    }

    /** Splits on commas that are not inside the parentheses of an {@code in (...)} set. */
    private static List<String> splitTopLevel(String selector) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                parts.add(selector.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(selector.substring(start));
        return parts;
    }

    private static String param(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
