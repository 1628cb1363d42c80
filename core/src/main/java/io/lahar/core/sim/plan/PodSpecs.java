package io.lahar.core.sim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.PodSpecReader;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.Toleration;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler reads from a pod spec (a Pod's or a task template's): the effective request
 * (Kubernetes' rule: containers summed, the largest init container when larger, limits when a
 * container has no requests), nodeSelector, tolerations, and through {@link PodSpecReader} node
 * affinity, inter-pod affinity, topology spread, host ports and images. Problems are collected with
 * their path, never thrown one at a time.
 */
final class PodSpecs {

    private PodSpecs() {}

    /**
     * Fills {@code b} from {@code spec} of a pod with {@code labels}; {@code path} names the spec in
     * problems. Node affinity, pod (anti-)affinity, spread constraints, host ports and images are
     * read (and checked) by {@link PodSpecReader}.
     */
    static void read(
            JsonNode spec, Map<String, String> labels, String path, TaskInfo.Builder b, List<Problem> problems) {
        b.resreq(requests(spec, path, problems));
        JsonNode sel = spec.path("nodeSelector");
        if (sel.isObject()) {
            sel.properties()
                    .forEach(e -> b.nodeSelector(e.getKey(), e.getValue().asText()));
        } else if (!sel.isMissingNode() && !sel.isNull()) {
            problems.add(new Problem(path + ".nodeSelector", "expected a mapping"));
        }
        PodSpecReader.Read read = PodSpecReader.read(spec, labels, path, problems);
        b.affinity(read.requiredNodeAffinity());
        b.spec(read.spec());
        JsonNode tols = spec.path("tolerations");
        if (tols.isArray()) {
            for (int i = 0; i < tols.size(); i++) {
                JsonNode t = tols.get(i);
                String tp = path + ".tolerations[" + i + "]";
                Toleration.Operator op =
                        enumValue(t.path("operator"), tp + ".operator", Toleration.Operator.class, problems);
                TaintEffect effect = enumValue(t.path("effect"), tp + ".effect", TaintEffect.class, problems);
                b.toleration(new Toleration(
                        t.path("key").asText(""), op, t.path("value").asText(""), effect));
            }
        } else if (!tols.isMissingNode() && !tols.isNull()) {
            problems.add(new Problem(path + ".tolerations", "expected a list"));
        }
    }

    /**
     * The spec's own {@code preemptionPolicy} (null when none): {@link #read} reports a value
     * Kubernetes refuses; the pod's policy is this, else its class's.
     */
    static String preemptionPolicy(JsonNode spec) {
        JsonNode p = spec.path("preemptionPolicy");
        return p.isTextual() ? p.asText() : null;
    }

    /** The pod's effective request; a bad quantity is a problem and counts as zero. */
    static Resource requests(JsonNode spec, String path, List<Problem> problems) {
        Map<String, BigDecimal> sum = new LinkedHashMap<>();
        for (String field : List.of("containers", "initContainers")) {
            JsonNode list = spec.path(field);
            if (!list.isArray()) continue;
            for (int i = 0; i < list.size(); i++) {
                JsonNode res = list.get(i).path("resources");
                JsonNode q = res.path("requests").isObject() ? res.path("requests") : res.path("limits");
                for (Map.Entry<String, JsonNode> e : q.properties()) {
                    String p = path + "." + field + "[" + i + "].resources." + e.getKey();
                    BigDecimal v;
                    try {
                        Resource one =
                                Resource.parse(Map.of(e.getKey(), e.getValue().asText()));
                        v = BigDecimal.valueOf(one.get(e.getKey()));
                    } catch (IllegalArgumentException ex) {
                        problems.add(new Problem(p, ex.getMessage()));
                        continue;
                    }
                    if (field.equals("containers")) sum.merge(e.getKey(), v, BigDecimal::add);
                    else sum.merge(e.getKey(), v, BigDecimal::max);
                }
            }
        }
        Resource r = Resource.EMPTY;
        for (Map.Entry<String, BigDecimal> e : sum.entrySet()) {
            long amount = e.getValue().longValue();
            r = r.add(single(e.getKey(), amount));
        }
        return r;
    }

    /** One dimension, given in Resource's own units (millicores, bytes, count, milli-units). */
    private static Resource single(String name, long amount) {
        return switch (name) {
            case Resource.CPU -> Resource.of(amount, 0);
            case Resource.MEMORY -> Resource.of(0, amount);
            case Resource.PODS -> Resource.of(0, 0, amount);
            default -> Resource.of(0, 0, 0, Map.of(name, amount));
        };
    }

    static <E extends Enum<E>> E enumValue(JsonNode v, String path, Class<E> type, List<Problem> problems) {
        if (v.isMissingNode() || v.isNull() || v.asText().isEmpty()) return null;
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v.asText())) return e;
        }
        problems.add(new Problem(
                path,
                "unknown value \"" + v.asText() + "\" (expected one of "
                        + java.util.Arrays.toString(type.getEnumConstants()) + ")"));
        return null;
    }
}
