package io.lahar.core.scheduling.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.scheduling.api.TopologySpreadConstraint.Policy;
import io.lahar.core.scheduling.api.TopologySpreadConstraint.WhenUnsatisfiable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the placement parts of a Kubernetes PodSpec (JSON or YAML tree) — node affinity (required
 * and preferred), pod affinity and anti-affinity, topology spread constraints, the containers' host
 * ports and images — checking them as the API server's validation does. Every problem is reported
 * with its path and the message Kubernetes gives; what is malformed is left out of the result, so a
 * caller that finds problems must refuse the pod rather than place it without the rule.
 *
 * <p>One reader for every way a pod reaches the scheduler: {@code lahar plan}'s pods and task
 * templates, the scheduler-service's pod intents, and admission's pod template validation.
 */
public final class PodSpecReader {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
    private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");

    private final List<Problem> problems;

    private PodSpecReader(List<Problem> problems) {
        this.problems = problems;
    }

    /**
     * What was read of one pod spec.
     *
     * @param preemptionPolicy the spec's {@code preemptionPolicy}; null when it names none
     */
    public record Read(NodeAffinity requiredNodeAffinity, PodSpec spec, String preemptionPolicy) {}

    /**
     * Reads {@code spec} (a PodSpec; missing or null reads as empty) of a pod with {@code labels};
     * problems are added with {@code path} (the spec's path) in front.
     */
    public static Read read(JsonNode spec, Map<String, String> labels, String path, List<Problem> problems) {
        return new PodSpecReader(problems).spec(spec, labels == null ? Map.of() : labels, path);
    }

    /** Only the checks: the problems of {@code spec}, as {@link #read} finds them. */
    public static List<Problem> validate(JsonNode spec, Map<String, String> labels, String path) {
        List<Problem> out = new ArrayList<>();
        read(spec, labels, path, out);
        return out;
    }

    /** The labels of a pod's {@code metadata.labels} (non-string values read as text). */
    public static Map<String, String> labels(JsonNode metadata) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode l = metadata == null ? null : metadata.path("labels");
        if (l != null && l.isObject())
            l.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private Read spec(JsonNode spec, Map<String, String> labels, String path) {
        JsonNode affinity = field(spec, "affinity");
        String ap = path + ".affinity";
        JsonNode nodeAffinity = field(affinity, "nodeAffinity");
        String np = ap + ".nodeAffinity";
        NodeAffinity required = NodeAffinity.NONE;
        JsonNode req = field(nodeAffinity, "requiredDuringSchedulingIgnoredDuringExecution");
        if (present(req)) {
            String rp = np + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
            JsonNode terms = req.path("nodeSelectorTerms");
            if (!terms.isArray() || terms.isEmpty()) {
                add(rp, "Required value: must have at least one node selector term");
            } else {
                List<NodeSelectorTerm> out = new ArrayList<>();
                for (int i = 0; i < terms.size(); i++) out.add(nodeSelectorTerm(terms.get(i), rp + "[" + i + "]"));
                required = new NodeAffinity(out);
            }
        }
        List<PreferredSchedulingTerm> preferredNode = new ArrayList<>();
        each(
                field(nodeAffinity, "preferredDuringSchedulingIgnoredDuringExecution"),
                np + ".preferredDuringSchedulingIgnoredDuringExecution",
                (t, tp) -> {
                    int w = weight(t, tp);
                    NodeSelectorTerm pref = nodeSelectorTerm(t.path("preference"), tp + ".preference");
                    if (w > 0) preferredNode.add(new PreferredSchedulingTerm(w, pref));
                });
        JsonNode podAffinity = field(affinity, "podAffinity");
        JsonNode podAnti = field(affinity, "podAntiAffinity");
        String pa = ap + ".podAffinity";
        String pn = ap + ".podAntiAffinity";
        List<PodAffinityTerm> reqAffinity = terms(
                field(podAffinity, "requiredDuringSchedulingIgnoredDuringExecution"),
                pa + ".requiredDuringSchedulingIgnoredDuringExecution",
                labels);
        List<PodAffinityTerm> reqAnti = terms(
                field(podAnti, "requiredDuringSchedulingIgnoredDuringExecution"),
                pn + ".requiredDuringSchedulingIgnoredDuringExecution",
                labels);
        List<WeightedPodAffinityTerm> prefAffinity = weightedTerms(
                field(podAffinity, "preferredDuringSchedulingIgnoredDuringExecution"),
                pa + ".preferredDuringSchedulingIgnoredDuringExecution",
                labels);
        List<WeightedPodAffinityTerm> prefAnti = weightedTerms(
                field(podAnti, "preferredDuringSchedulingIgnoredDuringExecution"),
                pn + ".preferredDuringSchedulingIgnoredDuringExecution",
                labels);
        List<TopologySpreadConstraint> spread =
                spread(field(spec, "topologySpreadConstraints"), path + ".topologySpreadConstraints", labels);
        List<HostPort> ports = new ArrayList<>();
        List<String> images = new ArrayList<>();
        for (String list : List.of("initContainers", "containers")) {
            each(field(spec, list), path + "." + list, (c, cp) -> {
                String image = c.path("image").asText("");
                if (!image.isEmpty()) images.add(image);
                each(field(c, "ports"), cp + ".ports", (p, pp) -> hostPort(p, pp, ports));
            });
        }
        return new Read(
                required,
                new PodSpec(labels, preferredNode, reqAffinity, reqAnti, prefAffinity, prefAnti, spread, ports, images),
                preemptionPolicy(field(spec, "preemptionPolicy"), path + ".preemptionPolicy"));
    }

    /** Kubernetes' v1.PreemptionPolicy: PreemptLowerPriority or Never; any other value is refused. */
    private String preemptionPolicy(JsonNode p, String path) {
        if (!present(p)) return null;
        String value = p.asText();
        if (p.isTextual() && (value.equals(TaskInfo.PREEMPT_LOWER_PRIORITY) || value.equals(TaskInfo.PREEMPT_NEVER))) {
            return value;
        }
        add(
                path,
                "unsupported value \"" + value + "\": supported values: \"" + TaskInfo.PREEMPT_LOWER_PRIORITY + "\", \""
                        + TaskInfo.PREEMPT_NEVER + "\"");
        return null;
    }

    private void hostPort(JsonNode p, String path, List<HostPort> ports) {
        JsonNode hp = p.path("hostPort");
        if (!present(hp) || (hp.canConvertToInt() && hp.asInt() == 0)) return;
        if (!hp.canConvertToInt() || hp.asInt() < 1 || hp.asInt() > 65535) {
            add(path + ".hostPort", "Invalid value: " + hp + ": must be between 1 and 65535, inclusive");
            return;
        }
        String protocol = p.path("protocol").asText("TCP");
        if (!PROTOCOLS.contains(protocol)) {
            add(
                    path + ".protocol",
                    "Unsupported value: \"" + protocol + "\": supported values: \"TCP\", \"UDP\", \"SCTP\"");
            return;
        }
        String ip = p.path("hostIP").asText("");
        if (!ip.isEmpty() && !IPV4.matcher(ip).matches() && !ip.contains(":")) {
            add(path + ".hostIP", "Invalid value: \"" + ip + "\": must be a valid IP address");
            return;
        }
        HostPort port = new HostPort(ip, protocol, hp.asInt());
        for (HostPort o : ports) {
            if (o.port() == port.port()
                    && o.protocol().equals(port.protocol())
                    && o.hostIP().equals(port.hostIP())) {
                add(path + ".hostPort", "Duplicate value: \"" + port.port() + "/" + port.protocol() + "\"");
                return;
            }
        }
        ports.add(port);
    }

    private NodeSelectorTerm nodeSelectorTerm(JsonNode term, String path) {
        if (!term.isObject()) {
            add(path, "Required value: a node selector term");
            return new NodeSelectorTerm(List.of());
        }
        List<NodeSelectorRequirement> exprs = new ArrayList<>();
        each(field(term, "matchExpressions"), path + ".matchExpressions", (r, rp) -> {
            NodeSelectorRequirement x = nodeRequirement(r, rp, false);
            if (x != null) exprs.add(x);
        });
        List<NodeSelectorRequirement> fields = new ArrayList<>();
        each(field(term, "matchFields"), path + ".matchFields", (r, rp) -> {
            NodeSelectorRequirement x = nodeRequirement(r, rp, true);
            if (x != null) fields.add(x);
        });
        return new NodeSelectorTerm(exprs, fields);
    }

    private NodeSelectorRequirement nodeRequirement(JsonNode r, String path, boolean field) {
        String key = r.path("key").asText("");
        String opText = r.path("operator").asText("");
        List<String> values = strings(r.path("values"), path + ".values");
        NodeSelectorRequirement.Operator op = null;
        for (NodeSelectorRequirement.Operator o : NodeSelectorRequirement.Operator.values()) {
            if (o.name().equals(opText)) op = o;
        }
        int before = problems.size();
        if (field) {
            if (!NodeSelectorTerm.NAME_FIELD.equals(key))
                add(path + ".key", "Invalid value: \"" + key + "\": not a valid field selector key");
            if (op != NodeSelectorRequirement.Operator.In && op != NodeSelectorRequirement.Operator.NotIn) {
                add(path + ".operator", "Invalid value: \"" + opText + "\": not a valid selector operator");
            } else if (values.size() != 1) {
                add(
                        path + ".values",
                        "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
            }
        } else {
            qualifiedName(key, path + ".key");
            if (op == null) {
                add(path + ".operator", "Invalid value: \"" + opText + "\": not a valid selector operator");
            } else {
                switch (op) {
                    case In, NotIn -> {
                        if (values.isEmpty())
                            add(
                                    path + ".values",
                                    "Required value: must be specified when `operator` is 'In' or 'NotIn'");
                    }
                    case Exists, DoesNotExist -> {
                        if (!values.isEmpty())
                            add(
                                    path + ".values",
                                    "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                    }
                    case Gt, Lt -> {
                        if (values.size() != 1)
                            add(
                                    path + ".values",
                                    "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
                        else if (!values.get(0).matches("-?\\d+"))
                            add(path + ".values[0]", "Invalid value: \"" + values.get(0) + "\": must be an integer");
                    }
                }
            }
        }
        return problems.size() > before ? null : new NodeSelectorRequirement(key, op, values);
    }

    private List<PodAffinityTerm> terms(JsonNode list, String path, Map<String, String> labels) {
        List<PodAffinityTerm> out = new ArrayList<>();
        each(list, path, (t, tp) -> {
            PodAffinityTerm term = affinityTerm(t, tp, labels);
            if (term != null) out.add(term);
        });
        return out;
    }

    private List<WeightedPodAffinityTerm> weightedTerms(JsonNode list, String path, Map<String, String> labels) {
        List<WeightedPodAffinityTerm> out = new ArrayList<>();
        each(list, path, (t, tp) -> {
            int w = weight(t, tp);
            PodAffinityTerm term = affinityTerm(t.path("podAffinityTerm"), tp + ".podAffinityTerm", labels);
            if (w > 0 && term != null) out.add(new WeightedPodAffinityTerm(w, term));
        });
        return out;
    }

    private int weight(JsonNode t, String path) {
        JsonNode w = t.path("weight");
        if (!w.canConvertToInt() || w.asInt() < 1 || w.asInt() > 100) {
            add(
                    path + ".weight",
                    "Invalid value: " + (present(w) ? w.toString() : "0") + ": must be in the range 1-100");
            return 0;
        }
        return w.asInt();
    }

    private PodAffinityTerm affinityTerm(JsonNode t, String path, Map<String, String> labels) {
        if (!t.isObject()) {
            add(path, "Required value: a pod affinity term");
            return null;
        }
        int before = problems.size();
        String key = t.path("topologyKey").asText("");
        if (key.isEmpty()) add(path + ".topologyKey", "Required value: can not be empty");
        else qualifiedName(key, path + ".topologyKey");
        LabelSelector selector = selector(t.path("labelSelector"), path + ".labelSelector");
        LabelSelector nsSelector = present(t.path("namespaceSelector"))
                ? selector(t.path("namespaceSelector"), path + ".namespaceSelector")
                : null;
        Set<String> namespaces = new TreeSet<>();
        List<String> ns = strings(t.path("namespaces"), path + ".namespaces");
        for (int i = 0; i < ns.size(); i++) {
            if (!DNS_LABEL.matcher(ns.get(i)).matches() || ns.get(i).length() > 63) {
                add(
                        path + ".namespaces[" + i + "]",
                        "Invalid value: \"" + ns.get(i)
                                + "\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'");
            } else {
                namespaces.add(ns.get(i));
            }
        }
        LabelSelector merged = mergeKeys(t, path, selector, labels, "matchLabelKeys", LabelSelector.Operator.In);
        merged = mergeKeys(t, path, merged, labels, "mismatchLabelKeys", LabelSelector.Operator.NotIn);
        if (problems.size() > before) return null;
        return new PodAffinityTerm(merged, namespaces, nsSelector, key);
    }

    /** The API server's merge of {@code matchLabelKeys} / {@code mismatchLabelKeys} into the term's selector. */
    private LabelSelector mergeKeys(
            JsonNode t,
            String path,
            LabelSelector selector,
            Map<String, String> labels,
            String field,
            LabelSelector.Operator op) {
        List<String> keys = strings(t.path(field), path + "." + field);
        if (keys.isEmpty()) return selector;
        if (!present(t.path("labelSelector"))) {
            add(path + "." + field, "Forbidden: must not be specified when labelSelector is not set");
            return selector;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            qualifiedName(k, path + "." + field + "[" + i + "]");
            if (selector.matchLabels().containsKey(k)
                    || selector.matchExpressions().stream()
                            .anyMatch(r -> r.key().equals(k))) {
                add(
                        path + "." + field + "[" + i + "]",
                        "Invalid value: \"" + k + "\": exists in both " + field + " and labelSelector");
            }
            if (labels.containsKey(k)) values.put(k, labels.get(k));
        }
        return selector.withRequirements(values, op);
    }

    private LabelSelector selector(JsonNode s, String path) {
        if (!present(s)) return LabelSelector.NOTHING;
        if (!s.isObject()) {
            add(path, "Invalid value: expected a label selector mapping");
            return LabelSelector.NOTHING;
        }
        Map<String, String> matchLabels = new LinkedHashMap<>();
        JsonNode ml = s.path("matchLabels");
        if (present(ml) && !ml.isObject()) add(path + ".matchLabels", "Invalid value: expected a mapping");
        else if (present(ml)) {
            ml.properties().forEach(e -> {
                qualifiedName(e.getKey(), path + ".matchLabels");
                labelValue(e.getValue().asText(), path + ".matchLabels." + e.getKey());
                matchLabels.put(e.getKey(), e.getValue().asText());
            });
        }
        List<LabelSelector.Requirement> exprs = new ArrayList<>();
        each(s.path("matchExpressions"), path + ".matchExpressions", (r, rp) -> {
            String key = r.path("key").asText("");
            qualifiedName(key, rp + ".key");
            String opText = r.path("operator").asText("");
            LabelSelector.Operator op = null;
            for (LabelSelector.Operator o : LabelSelector.Operator.values()) {
                if (o.name().equals(opText)) op = o;
            }
            List<String> values = strings(r.path("values"), rp + ".values");
            if (op == null) {
                add(rp + ".operator", "Invalid value: \"" + opText + "\": not a valid selector operator");
                return;
            }
            if ((op == LabelSelector.Operator.In || op == LabelSelector.Operator.NotIn) && values.isEmpty()) {
                add(rp + ".values", "Required value: must be specified when `operator` is 'In' or 'NotIn'");
            } else if ((op == LabelSelector.Operator.Exists || op == LabelSelector.Operator.DoesNotExist)
                    && !values.isEmpty()) {
                add(rp + ".values", "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
            }
            for (int i = 0; i < values.size(); i++) labelValue(values.get(i), rp + ".values[" + i + "]");
            exprs.add(new LabelSelector.Requirement(key, op, values));
        });
        return new LabelSelector(matchLabels, exprs, false);
    }

    private List<TopologySpreadConstraint> spread(JsonNode list, String path, Map<String, String> labels) {
        List<TopologySpreadConstraint> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        each(list, path, (c, cp) -> {
            int before = problems.size();
            JsonNode skew = c.path("maxSkew");
            if (!skew.canConvertToInt() || skew.asInt() <= 0) {
                add(
                        cp + ".maxSkew",
                        "Invalid value: " + (present(skew) ? skew.toString() : "0") + ": must be greater than zero");
            }
            String key = c.path("topologyKey").asText("");
            if (key.isEmpty()) add(cp + ".topologyKey", "Required value: can not be empty");
            else qualifiedName(key, cp + ".topologyKey");
            String when = c.path("whenUnsatisfiable").asText("");
            WhenUnsatisfiable w = null;
            for (WhenUnsatisfiable x : WhenUnsatisfiable.values()) {
                if (x.name().equals(when)) w = x;
            }
            if (w == null)
                add(
                        cp + ".whenUnsatisfiable",
                        "Unsupported value: \"" + when + "\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
            JsonNode md = c.path("minDomains");
            int minDomains = 1;
            if (present(md)) {
                if (!md.canConvertToInt() || md.asInt() <= 0)
                    add(cp + ".minDomains", "Invalid value: " + md + ": must be greater than zero");
                else if (w == WhenUnsatisfiable.ScheduleAnyway) {
                    add(
                            cp + ".minDomains",
                            "Invalid value: " + md
                                    + ": can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway");
                } else minDomains = md.asInt();
            }
            Policy affinityPolicy = policy(c.path("nodeAffinityPolicy"), cp + ".nodeAffinityPolicy", Policy.Honor);
            Policy taintsPolicy = policy(c.path("nodeTaintsPolicy"), cp + ".nodeTaintsPolicy", Policy.Ignore);
            LabelSelector selector = selector(c.path("labelSelector"), cp + ".labelSelector");
            List<String> keys = strings(c.path("matchLabelKeys"), cp + ".matchLabelKeys");
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                String k = keys.get(i);
                qualifiedName(k, cp + ".matchLabelKeys[" + i + "]");
                if (selector.matchLabels().containsKey(k)
                        || selector.matchExpressions().stream()
                                .anyMatch(r -> r.key().equals(k))) {
                    add(
                            cp + ".matchLabelKeys[" + i + "]",
                            "Invalid value: \"" + k + "\": exists in both matchLabelKeys and labelSelector");
                }
                if (labels.containsKey(k)) values.put(k, labels.get(k));
            }
            if (!keys.isEmpty() && !present(c.path("labelSelector"))) {
                add(cp + ".matchLabelKeys", "Forbidden: must not be specified when labelSelector is not set");
            }
            if (w != null && !key.isEmpty() && !seen.add(key + "\0" + w)) {
                add(cp, "Duplicate value: \"{" + key + ", " + w + "}\"");
            }
            if (problems.size() == before) {
                out.add(new TopologySpreadConstraint(
                        skew.asInt(),
                        key,
                        w,
                        selector.withRequirements(values, LabelSelector.Operator.In),
                        minDomains,
                        affinityPolicy,
                        taintsPolicy));
            }
        });
        return out;
    }

    private Policy policy(JsonNode v, String path, Policy dflt) {
        if (!present(v)) return dflt;
        for (Policy p : Policy.values()) {
            if (p.name().equals(v.asText())) return p;
        }
        add(path, "Unsupported value: \"" + v.asText() + "\": supported values: \"Honor\", \"Ignore\"");
        return dflt;
    }

    private void qualifiedName(String key, String path) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        String prefix = slash < 0 ? null : key.substring(0, slash);
        boolean ok = !name.isEmpty()
                && name.length() <= 63
                && NAME.matcher(name).matches()
                && (prefix == null
                        || (!prefix.isEmpty()
                                && prefix.length() <= 253
                                && DNS_SUBDOMAIN.matcher(prefix).matches()));
        if (!ok) {
            add(
                    path,
                    "Invalid value: \"" + key
                            + "\": name part must consist of alphanumeric characters, '-', '_' or '.', "
                            + "and must start and end with an alphanumeric character (with an optional DNS subdomain prefix and '/')");
        }
    }

    private void labelValue(String v, String path) {
        if (!v.isEmpty() && (v.length() > 63 || !NAME.matcher(v).matches())) {
            add(
                    path,
                    "Invalid value: \"" + v
                            + "\": a valid label must be an empty string or consist of alphanumeric characters, "
                            + "'-', '_' or '.', and must start and end with an alphanumeric character");
        }
    }

    private List<String> strings(JsonNode list, String path) {
        List<String> out = new ArrayList<>();
        if (!present(list)) return out;
        if (!list.isArray()) {
            add(path, "Invalid value: expected a list");
            return out;
        }
        list.forEach(v -> out.add(v.asText()));
        return out;
    }

    private interface Item {
        void read(JsonNode item, String path);
    }

    private void each(JsonNode list, String path, Item item) {
        if (!present(list)) return;
        if (!list.isArray()) {
            add(path, "Invalid value: expected a list");
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode n = list.get(i);
            if (!n.isObject()) add(path + "[" + i + "]", "Invalid value: expected a mapping");
            else item.read(n, path + "[" + i + "]");
        }
    }

    private static JsonNode field(JsonNode n, String name) {
        return n == null || !n.isObject() ? null : n.get(name);
    }

    private static boolean present(JsonNode n) {
        return n != null && !n.isMissingNode() && !n.isNull();
    }

    private void add(String path, String message) {
        problems.add(new Problem(path, message));
    }
}
