package io.lahar.core.admission;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Volcano's queue webhooks (queues/mutate, queues/validate) with the hierarchy rules of
 * hierarchical queues: defaults weight 1, reclaimable true, parent root, state Open; a positive
 * weight; guarantee <= deserved <= capability; an existing parent without jobs of its own, whose
 * capability and guarantee the children respect; at most {@link #MAX_DEPTH} levels below root;
 * root and default can not be deleted.
 */
public final class QueueAdmission {

    /** The annotations of Volcano's older annotation-based hierarchy (hdrf). */
    public static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";

    public static final String HIERARCHY_WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights";

    /** Volcano's default {@code --max-queue-depth}: the levels of queues below root. */
    public static final int MAX_DEPTH = 5;

    private QueueAdmission() {}

    public static Queue applyDefaults(Queue queue) {
        Queue.QueueSpec spec = queue.spec() != null
                ? queue.spec()
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
        if (queue.status() == null
                || queue.status().state() == null
                || queue.status().state().isEmpty()) {
            Queue.QueueStatus st = queue.status() == null
                    ? Queue.QueueStatus.of(QueueState.Open)
                    : new Queue.QueueStatus(
                            QueueState.Open.name(),
                            queue.status().unknown(),
                            queue.status().pending(),
                            queue.status().running(),
                            queue.status().inqueue(),
                            queue.status().completed(),
                            queue.status().allocated(),
                            queue.status().reservation());
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
        validate(q, null, ctx, v);
        return AdmissionResult.of(q, v.list());
    }

    public static AdmissionResult<Queue> update(Queue old, Queue queue, AdmissionContext ctx) {
        Queue q = applyDefaults(queue);
        Violations v = new Violations();
        if (!old.name().equals(q.name())) {
            v.add("metadata.name", "may not be changed on update (was \"" + old.name() + "\")");
        }
        validate(q, applyDefaults(old), ctx.without(old), v);
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
                v.add(
                        "metadata.name",
                        "queue " + name + " can not be deleted because it has " + children.size() + " child queues: "
                                + names(children));
            }
        }
        return AdmissionResult.of(ctx.queue(name).orElse(queue), v.list());
    }

    /** {@code old} is the stored queue of an update, null on create. */
    private static void validate(Queue q, Queue old, AdmissionContext ctx, Violations v) {
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
        Map<String, BigDecimal> guarantee = quantities(guaranteeOf(spec), "spec.guarantee.resource", v);
        // guarantee <= deserved <= capability (a resource without capability is not capped)
        guarantee.forEach((r, g) -> {
            BigDecimal d = deserved.get(r);
            if (d == null) {
                v.add("spec.deserved." + r, "deserved[" + r + "] must be >= guarantee[" + r + "]=" + plain(g));
            } else if (d.compareTo(g) < 0) {
                v.add(
                        "spec.deserved." + r,
                        "deserved[" + r + "]=" + plain(d) + " must be >= guarantee[" + r + "]=" + plain(g));
            }
            BigDecimal c = capability.get(r);
            if (c != null && g.compareTo(c) > 0) {
                v.add(
                        "spec.guarantee.resource." + r,
                        "guarantee[" + r + "]=" + plain(g) + " must be <= capability[" + r + "]=" + plain(c));
            }
        });
        deserved.forEach((r, d) -> {
            BigDecimal c = capability.get(r);
            if (c != null && d.compareTo(c) > 0) {
                v.add(
                        "spec.deserved." + r,
                        "deserved[" + r + "]=" + plain(d) + " must be <= capability[" + r + "]=" + plain(c));
            }
        });
        validateHierarchyAnnotations(q, ctx, v);
        boolean parentChanged = old == null || !Objects.equals(old.spec().parent(), spec.parent());
        if (Queue.ROOT.equals(q.name())) {
            if (spec.parent() != null && !spec.parent().isEmpty()) {
                v.add("spec.parent", "the root queue can not have a parent");
            }
            return;
        }
        if (parentChanged && !validateParent(q, ctx, v)) {
            return;
        }
        boolean resourcesChanged = old == null
                || parentChanged
                || !Objects.equals(old.spec().capability(), spec.capability())
                || !Objects.equals(old.spec().deserved(), spec.deserved())
                || !Objects.equals(guaranteeOf(old.spec()), guaranteeOf(spec));
        if (resourcesChanged) {
            validateHierarchyResources(q, capability, deserved, guarantee, ctx, v);
        }
    }

    /** The parent exists, is not the queue itself nor one of its descendants, and runs no jobs of its own. */
    private static boolean validateParent(Queue q, AdmissionContext ctx, Violations v) {
        String parentName = q.spec().parent();
        if (parentName.equals(q.name())) {
            v.add("spec.parent", "queue " + q.name() + " cannot use itself as parent");
            return false;
        }
        Optional<Queue> parent = ctx.queue(parentName);
        if (parent.isEmpty()) {
            v.add("spec.parent", "parent queue \"" + parentName + "\" not found");
            return false;
        }
        // Walking up from the parent must reach root without meeting this queue again.
        Set<String> seen = new HashSet<>();
        for (Queue p = parent.get();
                p != null && seen.add(p.name());
                p = ctx.queue(p.parentOrRoot()).orElse(null)) {
            if (p.parentOrRoot().equals(q.name())) {
                v.add(
                        "spec.parent",
                        "queue \"" + parentName + "\" is a descendant of \"" + q.name()
                                + "\": the hierarchy would form a cycle");
                return false;
            }
        }
        int depth = 1;
        for (String p = parentName;
                !Queue.ROOT.equals(p);
                p = ctx.queue(p).map(Queue::parentOrRoot).orElse(Queue.ROOT)) {
            if (++depth > MAX_DEPTH) {
                v.add("spec.parent", "queue " + q.name() + " exceeds the maximum allowed depth of " + MAX_DEPTH);
                return false;
            }
        }
        if (Queue.ROOT.equals(parentName) || !ctx.childrenOf(parentName).isEmpty()) {
            return true;
        }
        // A leaf that already runs work can not become a parent: jobs go to leaf queues only.
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
        Queue.QueueStatus st = parent.get().status();
        String pods =
                st == null || st.allocated() == null ? null : st.allocated().get("pods");
        BigDecimal allocated =
                pods == null ? BigDecimal.ZERO : Quantity.amountOf(pods).orElse(BigDecimal.ZERO);
        if (allocated.signum() > 0) {
            v.add(
                    "spec.parent",
                    "queue " + parentName + " cannot be the parent queue of queue " + q.name()
                            + " because it has allocated Pods: " + plain(allocated));
            return false;
        }
        if (!jobs.isEmpty()) {
            v.add(
                    "spec.parent",
                    "queue " + parentName + " cannot be the parent queue of queue " + q.name()
                            + " because jobs were submitted to it ("
                            + String.join(", ", jobs.stream().sorted().toList()) + ")");
            return false;
        }
        return true;
    }

    /**
     * Volcano's validateHierarchicalQueueResources: a capability within the nearest ancestor's, the
     * siblings' guarantees and deserved shares within the parent's, and, for a queue with
     * children, room for its descendants.
     */
    private static void validateHierarchyResources(
            Queue q,
            Map<String, BigDecimal> capability,
            Map<String, BigDecimal> deserved,
            Map<String, BigDecimal> guarantee,
            AdmissionContext ctx,
            Violations v) {
        String parentName = q.parentOrRoot();
        if (!Queue.ROOT.equals(parentName)) {
            capability.forEach((r, c) -> nearestAncestorCapability(q, r, ctx).ifPresent(limit -> {
                if (c.compareTo(limit) > 0) {
                    v.add(
                            "spec.capability." + r,
                            "queue " + q.name() + " capability[" + r + "]=" + plain(c)
                                    + " exceeds its ancestor's capability=" + plain(limit));
                }
            }));
            ctx.queue(parentName).ifPresent(parent -> {
                siblingsWithin(q, parent, guarantee, "guarantee", "spec.guarantee.resource", ctx, v);
                siblingsWithin(q, parent, deserved, "deserved", "spec.deserved", ctx, v);
            });
        }
        List<Queue> children = ctx.childrenOf(q.name());
        if (children.isEmpty()) {
            return;
        }
        capability.forEach((r, c) -> {
            BigDecimal max = BigDecimal.ZERO;
            for (Queue child : children) {
                max = max.max(subtreeMaxCapability(child, r, ctx, new HashSet<>()));
            }
            if (c.compareTo(max) < 0) {
                v.add(
                        "spec.capability." + r,
                        "queue " + q.name() + " capability[" + r + "]=" + plain(c)
                                + " is smaller than its descendants' max capability=" + plain(max));
            }
        });
        childrenWithin(q, children, guarantee, "guarantee", "spec.guarantee.resource", v);
        childrenWithin(q, children, deserved, "deserved", "spec.deserved", v);
    }

    private static Optional<BigDecimal> nearestAncestorCapability(Queue q, String resource, AdmissionContext ctx) {
        Set<String> seen = new HashSet<>();
        String parent = q.parentOrRoot();
        while (!parent.isEmpty() && !Queue.ROOT.equals(parent) && seen.add(parent)) {
            Optional<Queue> pq = ctx.queue(parent);
            if (pq.isEmpty()) {
                return Optional.empty();
            }
            BigDecimal val = quantities(
                            pq.get().spec() == null ? null : pq.get().spec().capability(), "", new Violations())
                    .get(resource);
            if (val != null && val.signum() > 0) {
                return Optional.of(val);
            }
            parent = pq.get().parentOrRoot();
        }
        return Optional.empty();
    }

    private static BigDecimal subtreeMaxCapability(Queue q, String resource, AdmissionContext ctx, Set<String> seen) {
        if (!seen.add(q.name())) {
            return BigDecimal.ZERO;
        }
        BigDecimal own = quantities(q.spec() == null ? null : q.spec().capability(), "", new Violations())
                .get(resource);
        if (own != null && own.signum() > 0) {
            return own;
        }
        BigDecimal max = BigDecimal.ZERO;
        for (Queue child : ctx.childrenOf(q.name())) {
            max = max.max(subtreeMaxCapability(child, resource, ctx, seen));
        }
        return max;
    }

    /** The queue's and its siblings' guarantees (or deserved) together must fit in the parent's; a missing one is 0. */
    private static void siblingsWithin(
            Queue q,
            Queue parent,
            Map<String, BigDecimal> own,
            String what,
            String path,
            AdmissionContext ctx,
            Violations v) {
        Map<String, BigDecimal> total = new LinkedHashMap<>(own);
        for (Queue sibling : ctx.childrenOf(parent.name())) {
            if (!sibling.name().equals(q.name())) {
                resourcesOf(sibling, what).forEach((r, val) -> total.merge(r, val, BigDecimal::add));
            }
        }
        Map<String, BigDecimal> limit = resourcesOf(parent, what);
        for (String r : own.keySet()) {
            BigDecimal l = limit.getOrDefault(r, BigDecimal.ZERO);
            if (total.get(r).compareTo(l) > 0) {
                v.add(
                        path + "." + r,
                        "parent queue " + parent.name() + " validation failed: sum of children's " + what + " (" + r
                                + " " + plain(total.get(r)) + ") exceeds parent's " + what + " limit (" + plain(l)
                                + ")");
            }
        }
    }

    /** A parent's own guarantee (or deserved) must cover the sum of its children's. */
    private static void childrenWithin(
            Queue q, List<Queue> children, Map<String, BigDecimal> own, String what, String path, Violations v) {
        Map<String, BigDecimal> total = new LinkedHashMap<>();
        for (Queue child : children) {
            resourcesOf(child, what).forEach((r, val) -> total.merge(r, val, BigDecimal::add));
        }
        total.forEach((r, sum) -> {
            BigDecimal l = own.getOrDefault(r, BigDecimal.ZERO);
            if (sum.compareTo(l) > 0) {
                v.add(
                        path + "." + r,
                        "queue " + q.name() + " validation failed: sum of children's " + what + " (" + r + " "
                                + plain(sum) + ") exceeds its " + what + " (" + plain(l) + ")");
            }
        });
    }

    private static Map<String, BigDecimal> resourcesOf(Queue q, String what) {
        if (q.spec() == null) {
            return Map.of();
        }
        return quantities(
                what.equals("guarantee") ? guaranteeOf(q.spec()) : q.spec().deserved(), "", new Violations());
    }

    private static Map<String, String> guaranteeOf(Queue.QueueSpec spec) {
        return spec == null || spec.guarantee() == null
                ? null
                : spec.guarantee().resource();
    }

    private static String plain(BigDecimal d) {
        return d.stripTrailingZeros().toPlainString();
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
                    v.add(
                            "metadata.annotations." + HIERARCHY_WEIGHTS_ANNOTATION,
                            w + " in the " + weights + " must be larger than 0");
                    return;
                }
            } catch (NumberFormatException e) {
                v.add(
                        "metadata.annotations." + HIERARCHY_WEIGHTS_ANNOTATION,
                        w + " in the " + weights + " is invalid number");
                return;
            }
        }
        for (Queue other : ctx.queues()) {
            String h = other.metadata() == null
                    ? ""
                    : other.metadata().annotationsOrEmpty().getOrDefault(HIERARCHY_ANNOTATION, "");
            if (!h.isEmpty() && !other.name().equals(q.name()) && h.startsWith(hierarchy + "/")) {
                v.add(path, hierarchy + " is not allowed to be in the sub path of " + h + " of queue " + other.name());
            }
        }
    }

    static Map<String, BigDecimal> quantities(Map<String, String> map, String path, Violations v) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        if (map == null) {
            return out;
        }
        map.forEach((k, val) -> {
            Optional<BigDecimal> q = Quantity.amountOf(val);
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
