package io.lahar.core.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.resource.Quantity;
import io.lahar.core.scheduling.api.PodSpecReader;
import io.lahar.core.scheduling.api.Problem;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The essentials of Kubernetes' ValidatePodTemplate that Volcano runs on every task template:
 * containers, names, images, resources, ports, volumes and mounts, restart and DNS policy,
 * tolerations. Messages follow Kubernetes' field errors.
 */
final class PodTemplateValidation {

    private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    private static final List<String> DNS_POLICIES =
            List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    private static final List<String> PULL_POLICIES = List.of("Always", "Never", "IfNotPresent");
    private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    private static final List<String> TOLERATION_OPERATORS = List.of("Exists", "Equal");
    private static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private PodTemplateValidation() {}

    static void validate(JsonNode template, String path, Violations v) {
        if (template == null || template.isNull() || template.isMissingNode()) {
            v.add(path, "required: a task needs a pod template");
            return;
        }
        Names.labels(template.path("metadata").path("labels"), path + ".metadata.labels", v);
        Names.annotations(template.path("metadata").path("annotations"), path + ".metadata.annotations", v);
        JsonNode spec = template.path("spec");
        if (!spec.isObject()) {
            v.add(path + ".spec", "required: the pod template needs a spec with containers");
            return;
        }
        String sp = path + ".spec";
        Set<String> volumeNames = volumes(spec.path("volumes"), sp + ".volumes", v);
        JsonNode containers = spec.path("containers");
        if (!containers.isArray() || containers.isEmpty()) {
            v.add(sp + ".containers", "required: must have at least one container");
        }
        Set<String> containerNames = new HashSet<>();
        containers(spec.path("initContainers"), sp + ".initContainers", volumeNames, containerNames, v);
        containers(containers, sp + ".containers", volumeNames, containerNames, v);
        podResources(spec, sp + ".resources", v);
        oneOf(spec.path("restartPolicy"), RESTART_POLICIES, sp + ".restartPolicy", v);
        oneOf(spec.path("dnsPolicy"), DNS_POLICIES, sp + ".dnsPolicy", v);
        JsonNode grace = spec.path("terminationGracePeriodSeconds");
        if (grace.isNumber() && grace.asLong() < 0) {
            v.add(sp + ".terminationGracePeriodSeconds", "must be greater than or equal to 0");
        }
        JsonNode deadline = spec.path("activeDeadlineSeconds");
        if (deadline.isNumber() && deadline.asLong() <= 0) {
            v.add(sp + ".activeDeadlineSeconds", "must be greater than or equal to 1");
        }
        tolerations(spec.path("tolerations"), sp + ".tolerations", v);
        schedulingRules(template, spec, sp, v);
    }

    /**
     * Node and pod (anti-)affinity, topology spread constraints and host ports, checked by the reader
     * the scheduler uses, so a template admission accepts is one the scheduler can carry out. A
     * path already reported above (a port's range or protocol) is not reported twice.
     */
    private static void schedulingRules(JsonNode template, JsonNode spec, String sp, Violations v) {
        Set<String> reported = new HashSet<>();
        for (Violation x : v.list()) reported.add(x.path());
        for (Problem p : PodSpecReader.validate(spec, PodSpecReader.labels(template.path("metadata")), sp)) {
            if (reported.add(p.path())) v.add(p.path(), p.message());
        }
    }

    private static Set<String> volumes(JsonNode volumes, String path, Violations v) {
        Set<String> names = new HashSet<>();
        if (!volumes.isArray()) {
            return names;
        }
        for (int k = 0; k < volumes.size(); k++) {
            String name = volumes.get(k).path("name").asText("");
            String at = path + "[" + k + "].name";
            if (name.isEmpty()) {
                v.add(at, "required");
            } else if (!Names.dns1123Label(name).isEmpty()) {
                v.add(at, "invalid volume name \"" + name + "\": " + Names.join(Names.dns1123Label(name)));
            } else if (!names.add(name)) {
                v.add(at, "duplicate volume name \"" + name + "\"");
            }
            if (volumes.get(k).size() < 2) {
                v.add(
                        path + "[" + k + "]",
                        "must specify a volume type (emptyDir, configMap, persistentVolumeClaim...)");
            }
        }
        return names;
    }

    private static void containers(
            JsonNode list, String path, Set<String> volumeNames, Set<String> seenNames, Violations v) {
        if (!list.isArray()) {
            return;
        }
        for (int k = 0; k < list.size(); k++) {
            JsonNode c = list.get(k);
            String at = path + "[" + k + "]";
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                v.add(at + ".name", "required");
            } else if (!Names.dns1123Label(name).isEmpty()) {
                v.add(at + ".name", "invalid container name \"" + name + "\": " + Names.join(Names.dns1123Label(name)));
            } else if (!seenNames.add(name)) {
                v.add(at + ".name", "duplicate container name \"" + name + "\"");
            }
            if (c.path("image").asText("").isBlank()) {
                v.add(at + ".image", "required");
            }
            oneOf(c.path("imagePullPolicy"), PULL_POLICIES, at + ".imagePullPolicy", v);
            for (String field : List.of("command", "args")) {
                JsonNode n = c.path(field);
                if (!n.isMissingNode() && !n.isNull() && !n.isArray()) {
                    v.add(at + "." + field, "must be a list of strings");
                }
            }
            resources(c.path("resources"), at + ".resources", v);
            ports(c.path("ports"), at + ".ports", v);
            mounts(c.path("volumeMounts"), at + ".volumeMounts", volumeNames, v);
            JsonNode env = c.path("env");
            if (env.isArray()) {
                for (int e = 0; e < env.size(); e++) {
                    if (env.get(e).path("name").asText("").isEmpty()) {
                        v.add(at + ".env[" + e + "].name", "required");
                    }
                }
            }
        }
    }

    private static void resources(JsonNode resources, String path, Violations v) {
        Map<String, BigDecimal> limits = quantities(resources.path("limits"), path + ".limits", v);
        Map<String, BigDecimal> requests = quantities(resources.path("requests"), path + ".requests", v);
        for (Map.Entry<String, BigDecimal> r : requests.entrySet()) {
            BigDecimal limit = limits.get(r.getKey());
            String name = r.getKey();
            if (isExtended(name)) {
                // Extended resources (e.g. nvidia.com/gpu) can not be overcommitted: request = limit.
                if (limit == null) {
                    v.add(path + ".limits", "Limit must be set for non overcommitable resources (" + name + ")");
                } else if (r.getValue().compareTo(limit) != 0) {
                    v.add(
                            path + ".requests." + name,
                            "must be equal to " + name + " limit of "
                                    + resources.path("limits").path(name).asText());
                }
            } else if (limit != null && r.getValue().compareTo(limit) > 0) {
                v.add(
                        path + ".requests." + name,
                        "must be less than or equal to " + name + " limit of "
                                + resources.path("limits").path(name).asText());
            }
        }
        for (String list : List.of("requests", "limits")) {
            JsonNode m = resources.path(list);
            if (m.isObject()) {
                m.fieldNames().forEachRemaining(name -> {
                    if (!isStandard(name) && !isExtended(name)) {
                        v.add(
                                path + "." + list + "." + name,
                                "invalid resource name \"" + name
                                        + "\": must be a standard resource (cpu, memory, ephemeral-storage, hugepages-<size>)"
                                        + " or fully qualified (e.g. nvidia.com/gpu)");
                    }
                });
            }
        }
    }

    private static boolean isStandard(String name) {
        return name.equals("cpu")
                || name.equals("memory")
                || name.equals("ephemeral-storage")
                || name.startsWith("hugepages-");
    }

    /** An extended resource: domain-qualified, outside the kubernetes.io namespace. */
    private static boolean isExtended(String name) {
        int slash = name.indexOf('/');
        if (slash <= 0 || slash == name.length() - 1) {
            return false;
        }
        String domain = name.substring(0, slash);
        return !domain.equals("kubernetes.io")
                && !domain.endsWith(".kubernetes.io")
                && !domain.startsWith("requests.")
                && Names.dns1123Subdomain(domain).isEmpty();
    }

    /**
     * Pod-level resources (spec.resources): requests within limits, and no less than what the
     * containers request together (the sum over containers, or the largest init container's).
     */
    private static void podResources(JsonNode spec, String path, Violations v) {
        JsonNode res = spec.path("resources");
        if (!res.isObject()) {
            return;
        }
        resources(res, path, v);
        Map<String, BigDecimal> podRequests = quantities(res.path("requests"), path + ".requests", new Violations());
        Map<String, BigDecimal> aggregate = new HashMap<>();
        for (JsonNode c : iterable(spec.path("containers"))) {
            quantities(c.path("resources").path("requests"), "", new Violations())
                    .forEach((k, q) -> aggregate.merge(k, q, BigDecimal::add));
        }
        for (JsonNode c : iterable(spec.path("initContainers"))) {
            quantities(c.path("resources").path("requests"), "", new Violations())
                    .forEach((k, q) -> aggregate.merge(k, q, BigDecimal::max));
        }
        podRequests.forEach((k, q) -> {
            BigDecimal need = aggregate.get(k);
            if (need != null && q.compareTo(need) < 0) {
                v.add(
                        path + ".requests." + k,
                        "must be greater than or equal to aggregate container requests of "
                                + need.stripTrailingZeros().toPlainString());
            }
        });
    }

    private static Iterable<JsonNode> iterable(JsonNode n) {
        return n.isArray() ? n : List.of();
    }

    private static Map<String, BigDecimal> quantities(JsonNode map, String path, Violations v) {
        Map<String, BigDecimal> out = new java.util.LinkedHashMap<>();
        if (map.isMissingNode() || map.isNull()) {
            return out;
        }
        if (!map.isObject()) {
            v.add(path, "must be a map of resource name to quantity");
            return out;
        }
        map.properties().forEach(e -> {
            String text = e.getValue().asText("");
            var q = e.getValue().isValueNode() ? Quantity.amountOf(text) : java.util.Optional.<BigDecimal>empty();
            if (q.isEmpty()) {
                v.add(
                        path + "." + e.getKey(),
                        "invalid quantity \""
                                + (e.getValue().isValueNode()
                                        ? text
                                        : e.getValue().toString())
                                + "\": must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
            } else if (q.get().signum() < 0) {
                v.add(path + "." + e.getKey(), "must be greater than or equal to 0");
            } else {
                out.put(e.getKey(), q.get());
            }
        });
        return out;
    }

    private static void ports(JsonNode ports, String path, Violations v) {
        if (!ports.isArray()) {
            return;
        }
        Set<String> names = new HashSet<>();
        for (int k = 0; k < ports.size(); k++) {
            JsonNode p = ports.get(k);
            String at = path + "[" + k + "]";
            JsonNode cp = p.path("containerPort");
            if (!cp.isInt()) {
                v.add(at + ".containerPort", "required: must be between 1 and 65535, inclusive");
            } else if (cp.asInt() < 1 || cp.asInt() > 65535) {
                v.add(at + ".containerPort", "must be between 1 and 65535, inclusive");
            }
            JsonNode hp = p.path("hostPort");
            if (hp.isInt() && (hp.asInt() < 0 || hp.asInt() > 65535)) {
                v.add(at + ".hostPort", "must be between 1 and 65535, inclusive");
            }
            oneOf(p.path("protocol"), PROTOCOLS, at + ".protocol", v);
            String name = p.path("name").asText("");
            if (!name.isEmpty()) {
                List<String> errs = Names.ianaSvcName(name);
                if (!errs.isEmpty()) {
                    v.add(at + ".name", "invalid port name \"" + name + "\": " + Names.join(errs));
                } else if (!names.add(name)) {
                    v.add(at + ".name", "duplicate port name \"" + name + "\"");
                }
            }
        }
    }

    private static void mounts(JsonNode mounts, String path, Set<String> volumeNames, Violations v) {
        if (!mounts.isArray()) {
            return;
        }
        Set<String> paths = new HashSet<>();
        for (int k = 0; k < mounts.size(); k++) {
            JsonNode m = mounts.get(k);
            String at = path + "[" + k + "]";
            String name = m.path("name").asText("");
            if (name.isEmpty()) {
                v.add(at + ".name", "required");
            } else if (!volumeNames.contains(name)) {
                v.add(at + ".name", "volume \"" + name + "\" not found in the pod's volumes");
            }
            String mountPath = m.path("mountPath").asText("");
            if (mountPath.isEmpty()) {
                v.add(at + ".mountPath", "required");
            } else if (!paths.add(mountPath)) {
                v.add(at + ".mountPath", "must be unique: \"" + mountPath + "\" is mounted twice");
            }
        }
    }

    private static void tolerations(JsonNode tolerations, String path, Violations v) {
        if (!tolerations.isArray()) {
            return;
        }
        for (int k = 0; k < tolerations.size(); k++) {
            JsonNode t = tolerations.get(k);
            String at = path + "[" + k + "]";
            String op = t.path("operator").asText("");
            String key = t.path("key").asText("");
            if (!op.isEmpty() && !TOLERATION_OPERATORS.contains(op)) {
                v.add(at + ".operator", unsupported(op, TOLERATION_OPERATORS));
            }
            if (key.isEmpty() && !op.equals("Exists")) {
                v.add(
                        at + ".operator",
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            }
            if (op.equals("Exists") && !t.path("value").asText("").isEmpty()) {
                v.add(at + ".value", "value must be empty when `operator` is 'Exists'");
            }
            String effect = t.path("effect").asText("");
            if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                v.add(at + ".effect", unsupported(effect, TAINT_EFFECTS));
            }
            if (t.has("tolerationSeconds") && !t.path("tolerationSeconds").isNull() && !effect.equals("NoExecute")) {
                v.add(at + ".effect", "effect must be 'NoExecute' when `tolerationSeconds` is set");
            }
        }
    }

    private static void oneOf(JsonNode node, List<String> allowed, String path, Violations v) {
        if (node.isMissingNode() || node.isNull()) {
            return;
        }
        String value = node.asText("");
        if (!allowed.contains(value)) {
            v.add(path, unsupported(value, allowed));
        }
    }

    static String unsupported(String value, List<String> allowed) {
        StringBuilder sb = new StringBuilder("unsupported value \"" + value + "\": supported values: ");
        for (int i = 0; i < allowed.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append('"').append(allowed.get(i)).append('"');
        }
        return sb.toString();
    }
}
