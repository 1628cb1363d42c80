package io.lahar.core.admission;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.Quantity;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Volcano's queue webhooks (queues/mutate, queues/validate) with the hierarchy rules of
 * hierarchical queues: defaults weight 1, reclaimable true, parent root, state Open; a positive
 * weight; guarantee <= deserved <= capability; an existing parent without jobs of its own, whose
 * capability and guarantee the children respect; root and default can not be deleted.
 */
public final class QueueAdmission {

    /** The annotations of Volcano's older annotation-based hierarchy (hdrf). */
    public static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";
    public static final String HIERARCHY_WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights";

    private QueueAdmission() {
    }

    public static Queue applyDefaults(Queue queue) {
        Queue.QueueSpec spec = queue.spec() != null ? queue.spec()
                : new Queue.QueueSpec(null, null, null, null, null, null, null, null, null, null, null);
        if (spec.weight() == null || spec.weight() == 0) {
            spec = spec.withWeight(1);
        }
        if (spec.reclaimable() == null) {
            spec = spec.withReclaimable(true);
        }
        if ((spec.parent() == null || spec.parent().isEmpty()) && !Queue.ROOT.equals(queue.name())) {
            spec = spec.withParent(Queue.ROOT);
        }
        Queue out = queue.withSpec(spec);
        if (queue.status() == null || queue.status().state() == null || queue.status().state().isEmpty()) {
            Queue.QueueStatus st = queue.status() == null ? Queue.QueueStatus.of(QueueState.Open)
                    : new Queue.QueueStatus(QueueState.Open.name(), queue.status().unknown(), queue.status().pending(),
                    queue.status().running(), queue.status().inqueue(), queue.status().completed(),
                    queue.status().allocated(), queue.status().reservation());
            out = out.withStatus(st);
        }
        ObjectMeta meta = out.metadata();
        Map<String, String> ann = meta == null ? Map.of() : meta.annotationsOrEmpty();
        String hierarchy = ann.getOrDefault(HIERARCHY_ANNOTATION, "");
        String weights = ann.getOrDefault(HIERARCHY_WEIGHTS_ANNOTATION, "");
        if (!hierarchy.isEmpty() && !weights.isEmpty() && !hierarchy.startsWith("root")) {
            Map<String, String> copy = new LinkedHashMap<>(ann);
            copy.put(HIERARCHY_ANNOTATION, "root/" + hierarchy);
            copy.put(HIERARCHY_WEIGHTS_ANNOTATION, "1/" + weights);
            out = new Queue(out.apiVersion(), out.kind(), meta.withAnnotations(copy), out.spec(), out.status());
        }
        return out;
    }

    public static AdmissionResult<Queue> create(Queue queue, AdmissionContext ctx) {
        Queue q = applyDefaults(queue);
        Violations v = new Violations();
        validate(q, ctx, v);
        return AdmissionResult.of(q, v.list());
    }

    public static AdmissionResult<Queue> update(Queue old, Queue queue, AdmissionContext ctx) {
        Queue q = applyDefaults(queue);
        Violations v = new Violations();
        if (!old.name().equals(q.name())) {
            v.add("metadata.name", "may not be changed on update (was \"" + old.name() + "\")");
        }
        validate(q, ctx.without(old), v);
        return AdmissionResult.of(q, v.list());
    }

    public static AdmissionResult<Queue> delete(Queue queue, AdmissionContext ctx) {
        Violations v = new Violations();
        String name = queue.name();
        if (Queue.ROOT.equals(name) || Queue.DEFAULT.equals(name)) {
            v.add("metadata.name", "`" + name + "` queue can not be deleted");
        } else if (ctx.queue(name).isEmpty()) {
            v.add("metadata.name", "queue \"" + name + "\" not found");
        } else {
            List<Queue> children = ctx.childrenOf(name);
            if (!children.isEmpty()) {
                v.add("metadata.name", "queue \"" + name + "\" has child queues (" + names(children)
                        + ") and can not be deleted");
            }
        }
        return AdmissionResult.of(ctx.queue(name).orElse(queue), v.list());
    }

    private static void validate(Queue q, AdmissionContext ctx, Violations v) {
        JobAdmission.validateMetadata(q, v);
        String state = q.status() == null ? null : q.status().state();
        if (state != null && !state.equals("Open") && !state.equals("Closed")) {
            v.add("status.state", PodTemplateValidation.unsupported(state, List.of("Open", "Closed")));
        }
        Queue.QueueSpec spec = q.spec();
        if (spec.weight() != null && spec.weight() <= 0) {
            v.add("spec.weight", "queue weight must be a positive integer");
        }
        Map<String, BigDecimal> capability = quantities(spec.capability(), "spec.capability", v);
        Map<String, BigDecimal> deserved = quantities(spec.deserved(), "spec.deserved", v);
        Map<String, BigDecimal> guarantee = quantities(spec.guarantee() == null ? null : spec.guarantee().resource(),
                "spec.guarantee.resource", v);
        notAbove(deserved, capability, "spec.deserved", "deserved", "capability", v);
        notAbove(guarantee, capability, "spec.guarantee.resource", "guarantee", "capability", v);
        notAbove(guarantee, deserved, "spec.guarantee.resource", "guarantee", "deserved", v);
        validateParent(q, capability, deserved, guarantee, ctx, v);
        validateHierarchyAnnotations(q, ctx, v);
    }

    private static void validateParent(Queue q, Map<String, BigDecimal> capability, Map<String, BigDecimal> deserved,
                                       Map<String, BigDecimal> guarantee, AdmissionContext ctx, Violations v) {
        String parentName = q.spec().parent();
        if (Queue.ROOT.equals(q.name())) {
            if (parentName != null && !parentName.isEmpty()) {
                v.add("spec.parent", "the root queue can not have a parent");
            }
            return;
        }
        if (parentName.equals(q.name())) {
            v.add("spec.parent", "a queue can not be its own parent");
            return;
        }
        Optional<Queue> parent = ctx.queue(parentName);
        if (parent.isEmpty()) {
            v.add("spec.parent", "parent queue \"" + parentName + "\" not found");
            return;
        }
        // Walking up from the parent must reach root without meeting this queue again.
        Set<String> seen = new HashSet<>();
        for (Queue p = parent.get(); p != null && seen.add(p.name()); p = ctx.queue(p.parentOrRoot()).orElse(null)) {
            if (p.parentOrRoot().equals(q.name())) {
                v.add("spec.parent", "queue \"" + parentName + "\" is a descendant of \"" + q.name()
                        + "\": the hierarchy would form a cycle");
                return;
            }
        }
        if (!Queue.ROOT.equals(parentName)) {
            List<String> jobs = new ArrayList<>();
            for (Job j : ctx.jobs()) {
                if (j.spec() != null && parentName.equals(j.spec().queue())) {
                    jobs.add(j.namespace() + "/" + j.name());
                }
            }
            for (PodGroup pg : ctx.podGroups()) {
                if (pg.spec() != null && parentName.equals(pg.spec().queue())) {
                    jobs.add("podgroup " + pg.namespace() + "/" + pg.name());
                }
            }
            if (!jobs.isEmpty()) {
                v.add("spec.parent", "queue \"" + parentName + "\" can not be a parent queue: jobs were submitted to it ("
                        + String.join(", ", jobs.stream().sorted().toList()) + ")");
            }
        }
        Queue.QueueSpec ps = parent.get().spec();
        if (ps == null) {
            return;
        }
        Map<String, BigDecimal> parentCap = quantities(ps.capability(), "", new Violations());
        for (Map.Entry<String, BigDecimal> e : capability.entrySet()) {
            BigDecimal limit = parentCap.get(e.getKey());
            if (limit != null && e.getValue().compareTo(limit) > 0) {
                v.add("spec.capability." + e.getKey(), "must not exceed the capability of parent queue \"" + parentName
                        + "\" (" + ps.capability().get(e.getKey()) + ")");
            }
        }
        siblingsWithin(q, parentName, guarantee, quantities(ps.guarantee() == null ? null : ps.guarantee().resource(), "",
                new Violations()), "spec.guarantee.resource", "guarantee", ctx, v);
        siblingsWithin(q, parentName, deserved, quantities(ps.deserved(), "", new Violations()), "spec.deserved",
                "deserved", ctx, v);
    }

    /** The children's guarantees (or deserved shares) together must fit in the parent's. */
    private static void siblingsWithin(Queue q, String parentName, Map<String, BigDecimal> own,
                                       Map<String, BigDecimal> parentTotal, String path, String what,
                                       AdmissionContext ctx, Violations v) {
        for (Map.Entry<String, BigDecimal> e : own.entrySet()) {
            BigDecimal total = parentTotal.get(e.getKey());
            if (total == null) {
                continue;
            }
            BigDecimal sum = e.getValue();
            for (Queue sibling : ctx.childrenOf(parentName)) {
                if (sibling.name().equals(q.name()) || sibling.spec() == null) {
                    continue;
                }
                Map<String, String> sib = what.equals("guarantee")
                        ? (sibling.spec().guarantee() == null ? null : sibling.spec().guarantee().resource())
                        : sibling.spec().deserved();
                BigDecimal s = quantities(sib, "", new Violations()).get(e.getKey());
                if (s != null) {
                    sum = sum.add(s);
                }
            }
            if (sum.compareTo(total) > 0) {
                v.add(path + "." + e.getKey(), "the " + what + " of the children of queue \"" + parentName + "\" ("
                        + sum.stripTrailingZeros().toPlainString() + " " + e.getKey() + ") would exceed its own "
                        + what + " (" + total.stripTrailingZeros().toPlainString() + ")");
            }
        }
    }

    private static void validateHierarchyAnnotations(Queue q, AdmissionContext ctx, Violations v) {
        Map<String, String> ann = q.metadata() == null ? Map.of() : q.metadata().annotationsOrEmpty();
        String hierarchy = ann.getOrDefault(HIERARCHY_ANNOTATION, "");
        String weights = ann.getOrDefault(HIERARCHY_WEIGHTS_ANNOTATION, "");
        if (hierarchy.isEmpty() && weights.isEmpty()) {
            return;
        }
        String path = "metadata.annotations." + HIERARCHY_ANNOTATION;
        String[] paths = hierarchy.split("/", -1);
        String[] ws = weights.split("/", -1);
        if (paths.length != ws.length) {
            v.add(path, HIERARCHY_ANNOTATION + " must have the same length with " + HIERARCHY_WEIGHTS_ANNOTATION);
            return;
        }
        for (String w : ws) {
            try {
                if (Double.parseDouble(w) <= 0) {
                    v.add("metadata.annotations." + HIERARCHY_WEIGHTS_ANNOTATION, w + " in the " + weights
                            + " must be larger than 0");
                    return;
                }
            } catch (NumberFormatException e) {
                v.add("metadata.annotations." + HIERARCHY_WEIGHTS_ANNOTATION, w + " in the " + weights + " is invalid number");
                return;
            }
        }
        for (Queue other : ctx.queues()) {
            String h = other.metadata() == null ? "" : other.metadata().annotationsOrEmpty().getOrDefault(HIERARCHY_ANNOTATION, "");
            if (!h.isEmpty() && !other.name().equals(q.name()) && h.startsWith(hierarchy)) {
                v.add(path, hierarchy + " is not allowed to be in the sub path of " + h + " of queue " + other.name());
            }
        }
    }

    private static void notAbove(Map<String, BigDecimal> lower, Map<String, BigDecimal> upper, String path,
                                 String lowerName, String upperName, Violations v) {
        for (Map.Entry<String, BigDecimal> e : lower.entrySet()) {
            BigDecimal u = upper.get(e.getKey());
            if (u != null && e.getValue().compareTo(u) > 0) {
                v.add(path + "." + e.getKey(), lowerName + " should be less than or equal to " + upperName + " ("
                        + u.stripTrailingZeros().toPlainString() + ")");
            }
        }
    }

    static Map<String, BigDecimal> quantities(Map<String, String> map, String path, Violations v) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        if (map == null) {
            return out;
        }
        map.forEach((k, val) -> {
            Optional<BigDecimal> q = Quantity.parse(val);
            if (q.isEmpty()) {
                v.add(path + "." + k, "invalid quantity \"" + val + "\"");
            } else if (q.get().signum() < 0) {
                v.add(path + "." + k, "must be greater than or equal to 0");
            } else {
                out.put(k, q.get());
            }
        });
        return out;
    }

    private static String names(List<Queue> queues) {
        return String.join(", ", queues.stream().map(Queue::name).sorted().toList());
    }
}
