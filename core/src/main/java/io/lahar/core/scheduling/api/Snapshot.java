package io.lahar.core.scheduling.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The immutable picture one scheduling session works on: nodes, queues and pod groups with their
 * tasks. A queue named {@code default} and the {@code root} queue exist even when not listed, as in
 * Volcano.
 */
public record Snapshot(
        List<NodeInfo> nodes,
        List<QueueInfo> queues,
        List<JobInfo> jobs,
        Map<String, Map<String, String>> namespaces,
        java.time.Instant now) {

    /** The label every namespace carries with its own name. */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    /**
     * @param namespaces namespace labels by name, for namespace selectors; a namespace not listed has only its name label
     * @param now        the time of the session (from the records, never the clock of the core), for the
     *                   sla plugin; null when not known
     */
    public Snapshot {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        queues = queues == null ? List.of() : List.copyOf(queues);
        jobs = jobs == null ? List.of() : List.copyOf(jobs);
        namespaces = namespaces == null ? Map.of() : Map.copyOf(namespaces);
    }

    public Snapshot(List<NodeInfo> nodes, List<QueueInfo> queues, List<JobInfo> jobs) {
        this(nodes, queues, jobs, Map.of(), null);
    }

    public Snapshot(
            List<NodeInfo> nodes,
            List<QueueInfo> queues,
            List<JobInfo> jobs,
            Map<String, Map<String, String>> namespaces) {
        this(nodes, queues, jobs, namespaces, null);
    }

    /** This snapshot at another time. */
    public Snapshot at(java.time.Instant t) {
        return new Snapshot(nodes, queues, jobs, namespaces, t);
    }

    /** A namespace's labels: those given, and always {@code kubernetes.io/metadata.name} (as the API server sets it). */
    public Map<String, String> namespaceLabels(String namespace) {
        Map<String, String> given = namespaces.get(namespace);
        if (given != null && namespace.equals(given.get(NAMESPACE_NAME_LABEL))) return given;
        Map<String, String> out = new java.util.TreeMap<>(given == null ? Map.of() : given);
        out.put(NAMESPACE_NAME_LABEL, namespace);
        return out;
    }

    /**
     * Everything wrong with this snapshot, each named by its path. The session skips what is wrong
     * (a duplicate node, a job with a problem) and schedules the rest.
     */
    public List<Problem> validate() {
        List<Problem> out = new ArrayList<>();
        Set<String> nodeNames = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeInfo n = nodes.get(i);
            if (n.name().isEmpty()) out.add(new Problem("nodes[" + i + "].name", "must not be empty"));
            if (!nodeNames.add(n.name())) {
                out.add(new Problem("nodes[" + i + "].name", "duplicate node \"" + n.name() + "\""));
            }
        }
        Map<String, QueueInfo> queueByName = new HashMap<>();
        for (int i = 0; i < queues.size(); i++) {
            QueueInfo q = queues.get(i);
            String p = "queues[" + i + "]";
            if (queueByName.putIfAbsent(q.name(), q) != null) {
                out.add(new Problem(p + ".name", "duplicate queue \"" + q.name() + "\""));
            }
            if (q.weight() <= 0) out.add(new Problem(p + ".weight", "must be positive, got " + q.weight()));
            if (!q.guarantee().lessEqualWithDimension(q.capability())) {
                out.add(new Problem(
                        p + ".guarantee",
                        "exceeds capability in " + q.guarantee().exceedingWithDimension(q.capability())));
            }
        }
        for (int i = 0; i < queues.size(); i++) {
            QueueInfo q = queues.get(i);
            if (q.parent() != null && !q.parent().equals(QueueInfo.ROOT) && !queueByName.containsKey(q.parent())) {
                out.add(new Problem("queues[" + i + "].parent", "unknown queue \"" + q.parent() + "\""));
            }
            Set<String> seen = new HashSet<>();
            for (QueueInfo c = q; c != null && c.parent() != null; c = queueByName.get(c.parent())) {
                if (!seen.add(c.name())) {
                    out.add(new Problem("queues[" + i + "].parent", "queue \"" + q.name() + "\" is its own ancestor"));
                    break;
                }
            }
        }
        Set<String> jobKeys = new HashSet<>();
        for (int i = 0; i < jobs.size(); i++) {
            out.addAll(validateJob(jobs.get(i), "jobs[" + i + "]", nodeNames, jobKeys));
        }
        return out;
    }

    /** The problems of one job; {@code path} is its path in the snapshot. */
    public static List<Problem> validateJob(JobInfo j, String path, Set<String> nodeNames, Set<String> jobKeys) {
        List<Problem> out = new ArrayList<>();
        if (!jobKeys.add(j.key())) out.add(new Problem(path + ".name", "duplicate pod group \"" + j.key() + "\""));
        if (j.minMember() < 0) out.add(new Problem(path + ".minMember", "must not be negative, got " + j.minMember()));
        Set<String> roles = new HashSet<>();
        Set<String> names = HashSet.newHashSet(j.tasks().size());
        String lastRole = null;
        for (int t = 0; t < j.tasks().size(); t++) {
            TaskInfo task = j.tasks().get(t);
            // A task's path is built only for a problem: this runs for every task at every session.
            if (!task.role().equals(lastRole)) {
                lastRole = task.role();
                roles.add(lastRole);
            }
            if (!names.add(task.name()))
                out.add(new Problem(path + ".tasks[" + t + "].name", "duplicate task \"" + task.name() + "\""));
            boolean needsNode = task.status().occupiesNode() || task.status() == TaskStatus.Pipelined;
            if (needsNode && task.nodeName() == null) {
                out.add(new Problem(
                        path + ".tasks[" + t + "].nodeName", "a " + task.status() + " task must name its node"));
            } else if (needsNode && !nodeNames.contains(task.nodeName())) {
                out.add(new Problem(path + ".tasks[" + t + "].nodeName", "unknown node \"" + task.nodeName() + "\""));
            }
        }
        j.minTaskMember().forEach((role, min) -> {
            if (min < 0) out.add(new Problem(path + ".minTaskMember." + role, "must not be negative, got " + min));
            // A pod group without pods yet is fine: Volcano's job controller creates them only after enqueue.
            if (!j.tasks().isEmpty() && !roles.contains(role))
                out.add(new Problem(path + ".minTaskMember." + role, "no task has role \"" + role + "\""));
        });
        return out;
    }
}
