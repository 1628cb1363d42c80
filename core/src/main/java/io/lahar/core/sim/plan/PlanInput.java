package io.lahar.core.sim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PriorityClass;
import io.lahar.core.api.Queue;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodSpecReader;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.SnapshotReader;
import io.lahar.core.scheduling.api.TaintEffect;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The documents of a cluster snapshot, sorted by kind: v1 Nodes (read here, into the scheduler's
 * {@link NodeInfo}), v1 Pods (kept as trees, {@link PlanWorld} reads them once it knows the jobs)
 * and the Volcano kinds {@link Manifests} reads (Queues, PriorityClasses, Jobs, PodGroups).
 * Every unreadable document is a problem naming its source, index and field; the rest is kept.
 * Documents of other kinds (JobTemplates, JobFlows, Deployments...) play no part in scheduling:
 * they are listed in {@code ignored}, so a whole cluster dump can be planned. A document without a
 * kind but with {@code nodes}, {@code queues} or {@code podGroups} is the scheduler's own compact
 * snapshot format, read by {@link SnapshotReader} (its pod groups are taken as they are, without a job).
 *
 * @param namespaces the labels of each v1 Namespace, for namespace selectors
 */
public record PlanInput(
        List<NodeInfo> nodes,
        List<Queue> queues,
        List<PriorityClass> priorityClasses,
        List<Job> jobs,
        List<PodGroup> podGroups,
        List<PodDocument> pods,
        List<Problem> problems,
        List<Problem> ignored,
        List<Snapshot> compact,
        Map<String, Map<String, String>> namespaces) {

    /** A v1 Pod document with the path that names it in problems. */
    public record PodDocument(String path, JsonNode tree) {}

    /** One input text and the name it is reported under (a file name). */
    public record Source(String name, String text) {}

    public PlanInput {
        nodes = List.copyOf(nodes);
        queues = List.copyOf(queues);
        priorityClasses = List.copyOf(priorityClasses);
        jobs = List.copyOf(jobs);
        podGroups = List.copyOf(podGroups);
        pods = List.copyOf(pods);
        problems = List.copyOf(problems);
        ignored = List.copyOf(ignored);
        compact = List.copyOf(compact);
        namespaces = Map.copyOf(namespaces);
    }

    /** Reads every document of every source, in order. */
    public static PlanInput read(List<Source> sources) {
        List<NodeInfo> nodes = new ArrayList<>();
        List<Queue> queues = new ArrayList<>();
        List<PriorityClass> classes = new ArrayList<>();
        List<Job> jobs = new ArrayList<>();
        List<PodGroup> groups = new ArrayList<>();
        List<PodDocument> pods = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        List<Problem> ignored = new ArrayList<>();
        List<Snapshot> compact = new ArrayList<>();
        Map<String, Map<String, String>> namespaces = new java.util.LinkedHashMap<>();
        for (Source s : sources) {
            List<JsonNode> docs;
            try {
                docs = Manifests.readTrees(s.text());
            } catch (ManifestException e) {
                problems.add(new Problem(s.name(), e.getMessage()));
                continue;
            }
            for (int i = 0; i < docs.size(); i++) {
                JsonNode doc = docs.get(i);
                String path = s.name() + "[" + i + "]";
                String kind = doc.path("kind").asText("");
                String apiVersion = doc.path("apiVersion").asText("");
                if (kind.isEmpty() && (doc.has("nodes") || doc.has("queues") || doc.has("podGroups"))) {
                    try {
                        compact.add(SnapshotReader.read(Manifests.toJson(doc)));
                    } catch (SnapshotReader.InvalidSnapshotException e) {
                        e.problems().forEach(p -> problems.add(new Problem(path + "." + p.path(), p.message())));
                    }
                    continue;
                }
                if (apiVersion.equals("v1") && kind.equals("Node")) {
                    NodeInfo n = node(doc, path, problems);
                    if (n != null) nodes.add(n);
                    continue;
                }
                if (apiVersion.equals("v1") && kind.equals("Namespace")) {
                    String name = doc.path("metadata").path("name").asText("");
                    if (name.isEmpty()) problems.add(new Problem(path + ".metadata.name", "required"));
                    else namespaces.put(name, PodSpecReader.labels(doc.path("metadata")));
                    continue;
                }
                if (apiVersion.equals("v1") && kind.equals("Pod")) {
                    if (doc.path("metadata").path("name").asText("").isEmpty()) {
                        problems.add(new Problem(path + ".metadata.name", "required"));
                    } else {
                        pods.add(new PodDocument(path, doc));
                    }
                    continue;
                }
                Manifest m;
                try {
                    m = Manifests.fromTree(doc);
                } catch (ManifestException e) {
                    if (e.unknownKind() && !kind.isEmpty())
                        ignored.add(new Problem(path, kind + " " + apiVersion + ": not part of scheduling"));
                    else problems.add(new Problem(path, e.getMessage()));
                    continue;
                }
                switch (m) {
                    case Queue q -> queues.add(q);
                    case PriorityClass p -> classes.add(p);
                    case Job j -> jobs.add(j);
                    case PodGroup g -> groups.add(g);
                    default -> ignored.add(new Problem(path, m.kind() + " " + m.name() + ": not part of scheduling"));
                }
            }
        }
        return new PlanInput(nodes, queues, classes, jobs, groups, pods, problems, ignored, compact, namespaces);
    }

    /** A v1 Node: status.allocatable (capacity when absent), labels, spec.taints, spec.unschedulable, status.images. */
    static NodeInfo node(JsonNode doc, String path, List<Problem> problems) {
        String name = doc.path("metadata").path("name").asText("");
        if (name.isEmpty()) {
            problems.add(new Problem(path + ".metadata.name", "required"));
            return null;
        }
        NodeInfo.Builder b = NodeInfo.builder(name);
        JsonNode status = doc.path("status");
        String field = status.path("allocatable").isObject() ? "allocatable" : "capacity";
        Map<String, Object> q = new java.util.LinkedHashMap<>();
        status.path(field)
                .properties()
                .forEach(e -> q.put(e.getKey(), e.getValue().asText()));
        try {
            b.allocatable(Resource.parse(q));
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(path + ".status." + field, e.getMessage()));
        }
        doc.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> b.label(e.getKey(), e.getValue().asText()));
        JsonNode taints = doc.path("spec").path("taints");
        for (int i = 0; taints.isArray() && i < taints.size(); i++) {
            JsonNode t = taints.get(i);
            String tp = path + ".spec.taints[" + i + "]";
            TaintEffect effect = PodSpecs.enumValue(t.path("effect"), tp + ".effect", TaintEffect.class, problems);
            if (t.path("key").asText("").isEmpty()) {
                problems.add(new Problem(tp + ".key", "required"));
            } else if (effect == null && t.path("effect").asText("").isEmpty()) {
                problems.add(new Problem(tp + ".effect", "required"));
            } else if (effect != null) {
                b.taint(t.path("key").asText(), t.path("value").asText(""), effect);
            }
        }
        JsonNode u = doc.path("spec").path("unschedulable");
        if (!u.isMissingNode() && !u.isNull() && !u.isBoolean()) {
            problems.add(new Problem(path + ".spec.unschedulable", "expected true or false, got " + u));
        }
        b.unschedulable(u.asBoolean(false));
        JsonNode images = status.path("images");
        for (int i = 0; images.isArray() && i < images.size(); i++) {
            JsonNode im = images.get(i);
            List<String> names = new ArrayList<>();
            im.path("names").forEach(x -> names.add(x.asText()));
            if (!names.isEmpty()) b.image(im.path("sizeBytes").asLong(0), names.toArray(String[]::new));
        }
        return b.build();
    }
}
