package io.lahar.core.scheduling.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a cluster snapshot from YAML or JSON (the input of a what-if session), reporting every
 * problem with its path instead of stopping at the first.
 *
 * <pre>{@code
 * nodes:
 * - name: n1
 *   allocatable: {cpu: 8, memory: 32Gi, pods: 110, nvidia.com/gpu: 4}
 *   otherUsed: {cpu: 500m}        # pods that are not tasks of these pod groups
 *   otherPods: 2
 *   labels: {zone: a}
 *   taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
 *   unschedulable: false
 *   images: [{names: ["registry/app:1.2"], sizeBytes: 500000000}]
 * now: "2026-01-01T12:00:00Z"     # the session's time (the sla plugin's clock)
 * namespaces:                     # labels for namespace selectors (every namespace has kubernetes.io/metadata.name)
 * - {name: team-a, labels: {team: a}}
 * queues:
 * - {name: research, weight: 3, capability: {cpu: 8}, guarantee: {cpu: 2}, reclaimable: false,
 *    parent: root, state: Open, priority: 10, deserved: {cpu: 4}}
 * podGroups:
 * - name: job1
 *   namespace: default
 *   queue: research
 *   minMember: 2
 *   minTaskMember: {ps: 1}
 *   minResources: {cpu: 2}        # default: the sum of the first minMember task requests
 *   priority: 10
 *   creationIndex: 3
 *   phase: Pending
 *   creationTime: "2026-01-01T11:00:00Z"
 *   slaWaitingTime: 30m           # the pod group's sla-waiting-time annotation
 *   preemptable: false            # its volcano.sh/preemptable (the tdm plugin orders and starves by it)
 *   budget: {maxUnavailable: 30%} # its disruption budget (or minAvailable), for the tdm plugin
 *   tasks:
 *   - name: job1-ps-0
 *     role: ps
 *     resources: {cpu: 1, memory: 1Gi}
 *     nodeSelector: {zone: a}
 *     affinity: [{matchExpressions: [{key: gen, operator: Gt, values: ["4"]}]}]
 *     tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]
 *     priority: 0
 *     preemptable: true
 *     revocableZone: "*"          # may run on revocable nodes (the tdm plugin's)
 *     status: Running
 *     node: n1
 *     cooldownTime: 10m           # its volcano.sh/cooldown-time (the cdp plugin's)
 *     scheduledTime: "2026-01-01T11:55:00Z"   # when its PodScheduled condition turned True
 *     labels: {app: web}
 *     pod:                        # a Kubernetes PodSpec's placement parts, read as the API server validates them
 *       affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
 *         [{labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}]}}
 *       topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,
 *         labelSelector: {matchLabels: {app: web}}}]
 *       containers: [{image: "registry/app:1.2", ports: [{containerPort: 80, hostPort: 8080}]}]
 * }</pre>
 */
public final class SnapshotReader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** A snapshot that cannot be read; lists every problem with its path. */
    public static final class InvalidSnapshotException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final transient List<Problem> problems;

        InvalidSnapshotException(List<Problem> problems) {
            super("invalid snapshot: "
                    + String.join("; ", problems.stream().map(Problem::toString).toList()));
            this.problems = List.copyOf(problems);
        }

        public List<Problem> problems() {
            return problems;
        }
    }

    private final List<Problem> problems = new ArrayList<>();

    private SnapshotReader() {}

    /**
     * Reads a snapshot. Structural problems (wrong types, unknown keys, bad quantities, unknown
     * enum values) are thrown together; problems of meaning (duplicates, unknown nodes) are left to
     * {@link Snapshot#validate()}, which the session reports without failing.
     *
     * @throws InvalidSnapshotException listing every structural problem
     */
    public static Snapshot read(String text) {
        JsonNode root;
        try {
            root = YAML.readTree(text == null ? "" : text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidSnapshotException(
                    List.of(new Problem("$", "not YAML or JSON: " + e.getOriginalMessage())));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidSnapshotException(
                    List.of(new Problem("$", "expected a mapping with nodes, queues and podGroups")));
        }
        SnapshotReader r = new SnapshotReader();
        r.keys(root, "", Set.of("nodes", "queues", "podGroups", "namespaces", "now"));
        List<NodeInfo> nodes = new ArrayList<>();
        r.each(root.get("nodes"), "nodes", (n, p) -> nodes.add(r.node(n, p)));
        List<QueueInfo> queues = new ArrayList<>();
        r.each(root.get("queues"), "queues", (n, p) -> queues.add(r.queue(n, p)));
        List<JobInfo> jobs = new ArrayList<>();
        r.each(root.get("podGroups"), "podGroups", (n, p) -> jobs.add(r.job(n, p)));
        Map<String, Map<String, String>> namespaces = new LinkedHashMap<>();
        r.each(root.get("namespaces"), "namespaces", (n, p) -> {
            r.keys(n, p, Set.of("name", "labels"));
            namespaces.put(r.name(n, p), r.strings(n, p, "labels"));
        });
        java.time.Instant now = r.time(root, "", "now");
        if (!r.problems.isEmpty()) {
            throw new InvalidSnapshotException(r.problems);
        }
        return new Snapshot(nodes, queues, jobs, namespaces, now);
    }

    private interface ItemReader {
        void read(JsonNode item, String path);
    }

    private void each(JsonNode list, String path, ItemReader reader) {
        if (list == null || list.isNull()) return;
        if (!list.isArray()) {
            problems.add(new Problem(path, "expected a list"));
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            String p = path + "[" + i + "]";
            if (!list.get(i).isObject()) {
                problems.add(new Problem(p, "expected a mapping"));
                continue;
            }
            reader.read(list.get(i), p);
        }
    }

    private void keys(JsonNode obj, String path, Set<String> allowed) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) problems.add(new Problem(join(path, f), "unknown key"));
        }
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private NodeInfo node(JsonNode n, String p) {
        keys(
                n,
                p,
                Set.of("name", "allocatable", "otherUsed", "otherPods", "labels", "taints", "unschedulable", "images"));
        NodeInfo.Builder b = NodeInfo.builder(name(n, p));
        b.allocatable(resource(n, p, "allocatable"));
        b.otherUsed(resource(n, p, "otherUsed"), integer(n, p, "otherPods", 0));
        strings(n, p, "labels").forEach(b::label);
        each(n.get("taints"), join(p, "taints"), (t, tp) -> {
            keys(t, tp, Set.of("key", "value", "effect"));
            TaintEffect effect = enumValue(t, tp, "effect", TaintEffect.class, null);
            String key = text(t, tp, "key", null);
            if (key == null) problems.add(new Problem(join(tp, "key"), "required"));
            if (effect == null) problems.add(new Problem(join(tp, "effect"), "required"));
            if (key != null && effect != null) b.taint(key, text(t, tp, "value", ""), effect);
        });
        b.unschedulable(bool(n, p, "unschedulable", false));
        each(n.get("images"), join(p, "images"), (im, ip) -> {
            keys(im, ip, Set.of("names", "sizeBytes"));
            JsonNode names = im.get("names");
            JsonNode size = im.get("sizeBytes");
            if (names == null || !names.isArray() || names.isEmpty())
                problems.add(new Problem(join(ip, "names"), "expected a list of image names"));
            else if (size == null || !size.canConvertToLong() || size.asLong() < 0)
                problems.add(new Problem(join(ip, "sizeBytes"), "expected a number of bytes"));
            else {
                List<String> list = new ArrayList<>();
                names.forEach(x -> list.add(x.asText()));
                b.image(size.asLong(), list.toArray(String[]::new));
            }
        });
        return b.build();
    }

    private QueueInfo queue(JsonNode n, String p) {
        keys(
                n,
                p,
                Set.of(
                        "name",
                        "weight",
                        "capability",
                        "guarantee",
                        "reclaimable",
                        "parent",
                        "state",
                        "priority",
                        "deserved"));
        Resource cap = n.has("capability") ? limit(n, p, "capability") : null;
        return new QueueInfo(
                name(n, p),
                integer(n, p, "weight", 1),
                cap,
                resource(n, p, "guarantee"),
                bool(n, p, "reclaimable", true),
                text(n, p, "parent", QueueInfo.ROOT),
                enumValue(n, p, "state", QueueState.class, QueueState.Open),
                integer(n, p, "priority", 0),
                n.has("deserved") ? resource(n, p, "deserved") : null);
    }

    private JobInfo job(JsonNode n, String p) {
        keys(
                n,
                p,
                Set.of(
                        "name",
                        "namespace",
                        "queue",
                        "minMember",
                        "minTaskMember",
                        "minResources",
                        "priority",
                        "creationIndex",
                        "phase",
                        "tasks",
                        "creationTime",
                        "slaWaitingTime",
                        "preemptable",
                        "budget"));
        JobInfo.Builder b = JobInfo.builder(name(n, p))
                .namespace(text(n, p, "namespace", "default"))
                .queue(text(n, p, "queue", "default"))
                .priority(integer(n, p, "priority", 0))
                .phase(enumValue(n, p, "phase", PodGroupPhase.class, PodGroupPhase.Pending));
        JsonNode ci = n.get("creationIndex");
        if (ci != null && !ci.canConvertToLong())
            problems.add(new Problem(join(p, "creationIndex"), "expected an integer"));
        else if (ci != null) b.creationIndex(ci.asLong());
        if (n.has("minMember")) b.minMember(integer(n, p, "minMember", 0));
        if (n.has("minResources")) b.minResources(resource(n, p, "minResources"));
        JsonNode mtm = n.get("minTaskMember");
        if (mtm != null && !mtm.isObject()) {
            problems.add(new Problem(join(p, "minTaskMember"), "expected a mapping of task name to count"));
        } else if (mtm != null) {
            for (Map.Entry<String, JsonNode> e : mtm.properties()) {
                if (!e.getValue().canConvertToInt()) {
                    problems.add(new Problem(join(p, "minTaskMember." + e.getKey()), "expected an integer"));
                } else {
                    b.minTaskMember(e.getKey(), e.getValue().asInt());
                }
            }
        }
        each(n.get("tasks"), join(p, "tasks"), (t, tp) -> b.task(task(t, tp)));
        b.creationTime(time(n, p, "creationTime"));
        String wait = text(n, p, "slaWaitingTime", null);
        if (wait != null) {
            java.util.Optional<java.time.Duration> d = io.lahar.core.api.GoDuration.parse(wait);
            if (d.isEmpty() || d.get().isNegative() || d.get().isZero()) {
                problems.add(new Problem(
                        join(p, "slaWaitingTime"), "expected a positive duration (e.g. 1h2m3s), got \"" + wait + "\""));
            } else {
                b.slaWaitingTime(d.get());
            }
        }
        b.preemptable(bool(n, p, "preemptable", false));
        Map<String, String> budget = strings(n, p, "budget");
        for (Map.Entry<String, String> e : budget.entrySet()) {
            String why = Set.of("minAvailable", "maxUnavailable").contains(e.getKey())
                    ? DisruptionBudget.check(e.getValue())
                    : "unknown field (minAvailable or maxUnavailable)";
            if (why != null) problems.add(new Problem(join(p, "budget." + e.getKey()), why));
        }
        if (budget.size() > 1)
            problems.add(new Problem(join(p, "budget"), "only one of minAvailable and maxUnavailable"));
        b.budget(new DisruptionBudget(budget.get("minAvailable"), budget.get("maxUnavailable")));
        return b.build();
    }

    private TaskInfo task(JsonNode n, String p) {
        keys(
                n,
                p,
                Set.of(
                        "name",
                        "role",
                        "resources",
                        "nodeSelector",
                        "affinity",
                        "tolerations",
                        "priority",
                        "preemptable",
                        "status",
                        "node",
                        "labels",
                        "pod",
                        "cooldownTime",
                        "scheduledTime",
                        "revocableZone"));
        TaskInfo.Builder b = TaskInfo.builder(name(n, p))
                .role(text(n, p, "role", ""))
                .resreq(resource(n, p, "resources"))
                .priority(integer(n, p, "priority", 0))
                .preemptable(bool(n, p, "preemptable", true))
                .scheduledTime(time(n, p, "scheduledTime"));
        String cooldown = text(n, p, "cooldownTime", null);
        if (cooldown != null) {
            java.util.Optional<java.time.Duration> d = io.lahar.core.api.GoDuration.parse(cooldown);
            if (d.isEmpty()) {
                problems.add(new Problem(
                        join(p, "cooldownTime"), "expected a duration (e.g. 1h2m3s), got \"" + cooldown + "\""));
            } else {
                b.cooldownTime(d.get());
            }
        }
        String zone = text(n, p, "revocableZone", "");
        if (!zone.isEmpty() && !zone.equals(TaskInfo.ANY_REVOCABLE_ZONE))
            problems.add(
                    new Problem(join(p, "revocableZone"), "expected \"*\" (any revocable zone), got \"" + zone + "\""));
        else b.revocableZone(zone);
        strings(n, p, "nodeSelector").forEach(b::nodeSelector);
        List<NodeSelectorTerm> terms = new ArrayList<>();
        each(n.get("affinity"), join(p, "affinity"), (t, tp) -> {
            keys(t, tp, Set.of("matchExpressions"));
            List<NodeSelectorRequirement> reqs = new ArrayList<>();
            each(t.get("matchExpressions"), join(tp, "matchExpressions"), (r, rp) -> {
                keys(r, rp, Set.of("key", "operator", "values"));
                NodeSelectorRequirement.Operator op =
                        enumValue(r, rp, "operator", NodeSelectorRequirement.Operator.class, null);
                String key = text(r, rp, "key", null);
                List<String> values = new ArrayList<>();
                JsonNode vs = r.get("values");
                if (vs != null && vs.isArray()) vs.forEach(v -> values.add(v.asText()));
                else if (vs != null) problems.add(new Problem(join(rp, "values"), "expected a list"));
                if (key == null) problems.add(new Problem(join(rp, "key"), "required"));
                if (op == null) problems.add(new Problem(join(rp, "operator"), "required"));
                if (key != null && op != null) reqs.add(new NodeSelectorRequirement(key, op, values));
            });
            terms.add(new NodeSelectorTerm(reqs));
        });
        b.affinity(new NodeAffinity(terms));
        Map<String, String> labels = strings(n, p, "labels");
        JsonNode pod = n.get("pod");
        if (pod != null && !pod.isNull() && !pod.isObject()) {
            problems.add(new Problem(join(p, "pod"), "expected a mapping (a Kubernetes PodSpec)"));
            pod = null;
        }
        PodSpecReader.Read read = PodSpecReader.read(pod, labels, join(p, "pod"), problems);
        b.spec(read.spec());
        if (!read.requiredNodeAffinity().isEmpty()) {
            if (!terms.isEmpty())
                problems.add(new Problem(
                        join(p, "pod.affinity.nodeAffinity"),
                        "give the required node affinity once (here or in affinity)"));
            else b.affinity(read.requiredNodeAffinity());
        }
        each(n.get("tolerations"), join(p, "tolerations"), (t, tp) -> {
            keys(t, tp, Set.of("key", "operator", "value", "effect"));
            b.toleration(new Toleration(
                    text(t, tp, "key", ""),
                    enumValue(t, tp, "operator", Toleration.Operator.class, null),
                    text(t, tp, "value", ""),
                    enumValue(t, tp, "effect", TaintEffect.class, null)));
        });
        TaskStatus status = enumValue(n, p, "status", TaskStatus.class, TaskStatus.Pending);
        String node = text(n, p, "node", null);
        b.status(status);
        if (node != null) b.on(node, status);
        return b.build();
    }

    private java.time.Instant time(JsonNode n, String p, String field) {
        String v = text(n, p, field, null);
        if (v == null) return null;
        try {
            return java.time.Instant.parse(v);
        } catch (java.time.format.DateTimeParseException e) {
            problems.add(new Problem(join(p, field), "not an RFC 3339 time: \"" + v + "\""));
            return null;
        }
    }

    private String name(JsonNode n, String p) {
        String name = text(n, p, "name", null);
        if (name == null || name.isEmpty()) {
            problems.add(new Problem(join(p, "name"), "required"));
            return "";
        }
        return name;
    }

    private String text(JsonNode n, String p, String field, String dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isValueNode()) {
            problems.add(new Problem(join(p, field), "expected a string"));
            return dflt;
        }
        return v.asText();
    }

    private int integer(JsonNode n, String p, String field, int dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.canConvertToInt() || (v.isFloatingPointNumber() && v.asDouble() != Math.rint(v.asDouble()))) {
            problems.add(new Problem(join(p, field), "expected an integer, got " + v));
            return dflt;
        }
        return v.asInt();
    }

    private boolean bool(JsonNode n, String p, String field, boolean dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isBoolean()) {
            problems.add(new Problem(join(p, field), "expected true or false, got " + v));
            return dflt;
        }
        return v.booleanValue();
    }

    private <E extends Enum<E>> E enumValue(JsonNode n, String p, String field, Class<E> type, E dflt) {
        String v = text(n, p, field, null);
        if (v == null) return dflt;
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v)) return e;
        }
        problems.add(new Problem(
                join(p, field),
                "unknown value \"" + v + "\" (expected one of " + java.util.Arrays.toString(type.getEnumConstants())
                        + ")"));
        return dflt;
    }

    private Map<String, String> strings(JsonNode n, String p, String field) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return out;
        if (!v.isObject()) {
            problems.add(new Problem(join(p, field), "expected a mapping"));
            return out;
        }
        v.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private Map<String, Object> quantities(JsonNode n, String p, String field) {
        Map<String, Object> out = new LinkedHashMap<>();
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return out;
        if (!v.isObject()) {
            problems.add(new Problem(join(p, field), "expected a mapping of resource name to quantity"));
            return out;
        }
        v.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private Resource resource(JsonNode n, String p, String field) {
        try {
            return Resource.parse(quantities(n, p, field));
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(join(p, field), e.getMessage()));
            return Resource.EMPTY;
        }
    }

    private Resource limit(JsonNode n, String p, String field) {
        try {
            return Resource.parseLimit(quantities(n, p, field));
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(join(p, field), e.getMessage()));
            return Resource.unlimited();
        }
    }
}
