package io.lahar.scheduler.cache;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.ForeignPod;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PriorityClasses;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.scheduler.mapping.MappingException;
import io.lahar.scheduler.mapping.NodeMapping;
import io.lahar.scheduler.mapping.PodEventMapping;
import io.lahar.scheduler.mapping.PodGroupMapping;
import io.lahar.scheduler.mapping.PodMapping;
import io.lahar.scheduler.mapping.QueueMapping;
import io.lahar.schema.Bind;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.Evict;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import io.lahar.schema.codec.PriorityClassCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * The scheduler's picture of the world, folded from its input topics as Volcano's cache folds the
 * API server's watch events: nodes, queues, pod groups, the pods of each gang (from the pod
 * intents) and their status (from the pod events).
 *
 * <p>It also folds the scheduler's own decisions read back from {@code lahar.scheduler-decisions}:
 * a binding is <em>assumed</em> (status Binding, holding its node) from the moment it is decided
 * until a pod event confirms it, so a slow bridge never lets a later session double-book the node;
 * a new instance rebuilds the same assumptions from its predecessor's committed decisions.
 *
 * <p>Every {@code on*} method takes the record key and the value, null for a tombstone; a value it
 * cannot use throws {@link MappingException} before anything changes.
 *
 * <p>Records are parsed once, on arrival, into the core's immutable objects (a node's
 * {@link NodeInfo}, a pod group's {@link JobInfo} template, a pod's {@link TaskInfo} template), and
 * each gang keeps the {@link JobInfo} it last put in a snapshot until something about it changes.
 * A session's snapshot therefore costs a pass over the gangs' references plus the rebuilding of the
 * gangs that changed since the last one, not a re-parse of every node and pod: the scheduler loop's
 * own cost per session grows with what changed (docs/decisions/009-scheduler-work-follows-changes.md). The
 * bindings awaiting confirmation are counted as they are assumed and confirmed, for the same reason.
 */
public final class SchedulerCache {

    private final Set<String> schedulerNames;
    private final NodeSelector nodeSelector;
    /** Parsed on arrival, with no other usage: the snapshot adds it to the nodes that have some. */
    private final Map<String, NodeInfo> nodes = new TreeMap<>();

    private final Map<String, QueueInfo> queues = new TreeMap<>();
    private final Map<String, JobEntry> jobs = new TreeMap<>();
    /** Other workloads' pods: a pod's key ({@code namespace/pod}) to its gang's ({@code namespace/podgroup:<name>}). */
    private final Map<String, String> workloadPods = new HashMap<>();
    /** The cluster's PriorityClasses by name, and what they resolve priorities to. */
    private final Map<String, io.lahar.core.api.PriorityClass> priorityClasses = new TreeMap<>();

    private PriorityClasses classes = PriorityClasses.NONE;

    private long maxEpoch;
    /** Pods in status Binding: assumed, not yet confirmed by a pod event. */
    private int unconfirmed;

    /** @param schedulerNames the pods' schedulerName values this scheduler places (Volcano: "volcano") */
    public SchedulerCache(Set<String> schedulerNames) {
        this(schedulerNames, NodeSelector.ALL);
    }

    /**
     * @param schedulerNames the pods' schedulerName values this scheduler places (Volcano: "volcano")
     * @param nodeSelector   the nodes it may use; the others are left out of every snapshot
     */
    public SchedulerCache(Set<String> schedulerNames, NodeSelector nodeSelector) {
        this.schedulerNames = Set.copyOf(schedulerNames);
        this.nodeSelector = nodeSelector;
    }

    /**
     * One gang: its pod group (null until it arrives or after a tombstone) and its pods, with what it
     * last contributed to a snapshot ({@code built}), valid until {@link #changed()}.
     */
    static final class JobEntry {
        PodGroup group;
        /** The pod group parsed on arrival, with no tasks and its recorded phase. */
        JobInfo groupInfo;

        PodGroupStatus lastDecided;
        /** The job version of the group {@link #lastDecided} was about; null when not known. */
        Integer lastDecidedVersion;

        final Map<String, PodEntry> pods = new TreeMap<>();
        boolean built;
        /** The gang as the last snapshot saw it; null when it was not in it. */
        JobInfo info;
        /** Its pods that hold a node but are not tasks of a snapshot job. */
        List<Other> otherUsage = List.of();

        void changed() {
            built = false;
        }
    }

    /** A pod on a node that is no task of the snapshot: its requests and, when its intent is known, its spec. */
    record Other(String node, Resource requests, ForeignPod pod) {}

    /** One pod: the intent that describes it (null until it arrives) and its status as last known. */
    static final class PodEntry {
        CreatePod intent;
        /** The intent parsed on arrival, with its priority left to the snapshot. */
        TaskInfo template;

        boolean ours;
        int jobVersion;
        TaskStatus status = TaskStatus.Pending;
        String node;
        boolean deleting;
        /** When its PodScheduled condition turned True, as its pod event or record says; null when not known. */
        java.time.Instant scheduled;
    }

    /**
     * A record of one of the scheduler's input topics — nodes, queues, pod groups, pod intents, pod
     * events — to its {@code on*} method (the decisions read back go to {@link #onDecision}).
     */
    public void onInput(String topic, String key, SpecificRecord value) {
        switch (topic) {
            case "lahar.nodes" -> onNode(key, (Node) value);
            case "lahar.queues" -> onQueue(key, (Queue) value);
            case "lahar.pod-groups" -> onPodGroup(key, (PodGroup) value);
            case "lahar.pod-intents" -> onPodIntent(key, (PodIntent) value);
            case "lahar.pod-events" -> onPodEvent(key, (PodEvent) value);
            case "lahar.workload-pods" -> onWorkloadPod(key, (WorkloadPod) value);
            case "lahar.priority-classes" -> onPriorityClass(key, (io.lahar.schema.PriorityClass) value);
            default -> throw new IllegalStateException("not an input topic of the cache: " + topic);
        }
    }

    public void onNode(String key, Node node) {
        if (node == null) {
            nodes.remove(key);
            return;
        }
        NodeInfo parsed = NodeMapping.toNodeInfo(node, Resource.EMPTY, 0);
        if (!nodeSelector.matches(node)) {
            // Its labels may have changed: a node that no longer matches leaves the scheduler's view.
            nodes.remove(node.getName());
            return;
        }
        nodes.put(node.getName(), parsed);
    }

    public void onQueue(String key, Queue queue) {
        if (queue == null) {
            queues.remove(key);
            return;
        }
        queues.put(queue.getName(), QueueMapping.toQueueInfo(queue));
    }

    /**
     * A PriorityClass created, changed or deleted: every gang's priority and its pods' are resolved
     * again at the next snapshot, as Volcano's scheduler cache gives each job its class's value at
     * every snapshot (a class created after a job was submitted raises it from then on).
     */
    public void onPriorityClass(String key, io.lahar.schema.PriorityClass pc) {
        io.lahar.core.api.PriorityClass before = priorityClasses.get(key);
        io.lahar.core.api.PriorityClass after = pc == null ? null : PriorityClassCodec.toPriorityClass(pc);
        if (java.util.Objects.equals(before, after)) return;
        if (after == null) priorityClasses.remove(key);
        else priorityClasses.put(key, after);
        classes = PriorityClasses.of(priorityClasses.values());
        jobs.values().forEach(JobEntry::changed);
    }

    public void onPodGroup(String key, PodGroup group) {
        if (group == null) {
            JobEntry j = jobs.get(key);
            if (j != null) {
                j.group = null;
                j.groupInfo = null;
                // The decision was about the group that is gone: a group created again under the
                // key (the job restarted) queues afresh, from its own record's phase.
                j.lastDecided = null;
                j.lastDecidedVersion = null;
                j.changed();
                if (j.pods.isEmpty()) jobs.remove(key);
            }
            return;
        }
        JobInfo parsed = PodGroupMapping.toJobInfo(group, PodGroupPhase.Pending, List.of());
        JobEntry j = job(key);
        j.group = group;
        j.groupInfo = parsed;
        j.changed();
    }

    public void onPodIntent(String key, PodIntent intent) {
        if (intent == null) return;
        switch (intent.getIntent()) {
            case CreatePod c -> {
                TaskInfo template = PodMapping.toTaskInfo(c, 0, TaskStatus.Pending, null);
                JobEntry j = job(key);
                PodEntry p = j.pods.computeIfAbsent(c.getPod(), n -> new PodEntry());
                if (c.getJobVersion() < p.jobVersion) return; // an older version's intent, late
                j.changed();
                if (p.intent != null && c.getJobVersion() > p.jobVersion && !p.status.occupiesNode()) {
                    // A restarted pod keeps its name: the new version starts pending.
                    status(p, TaskStatus.Pending);
                    p.node = null;
                    p.deleting = false;
                    p.scheduled = null;
                }
                p.intent = c;
                p.template = template;
                p.ours = schedulerNames.contains(c.getSchedulerName());
                p.jobVersion = c.getJobVersion();
            }
            case DeletePod d -> {
                JobEntry j = jobs.get(key);
                PodEntry p = j == null ? null : j.pods.get(d.getPod());
                if (p == null || p.jobVersion > d.getJobVersion()) return;
                j.changed();
                if (p.status.occupiesNode() && p.node != null) {
                    // Still holds its node until the pod event says it is gone.
                    status(p, TaskStatus.Releasing);
                    p.deleting = true;
                } else {
                    remove(j, d.getPod());
                }
            }
            default -> {
                // Services, config maps and secrets do not take part in scheduling.
            }
        }
    }

    public void onPodEvent(String key, PodEvent event) {
        if (event == null) return;
        JobEntry j = job(key);
        PodEntry p = j.pods.computeIfAbsent(event.getPod(), n -> new PodEntry());
        if (event.getJobVersion() < p.jobVersion) return; // about an older incarnation of the pod
        j.changed();
        p.jobVersion = event.getJobVersion();
        TaskStatus status = PodEventMapping.status(event, p.deleting);
        if (status == null) {
            remove(j, event.getPod());
            return;
        }
        // A pending pod without a node does not undo an assumed binding: the event predates it.
        if (status == TaskStatus.Pending && p.status == TaskStatus.Binding) return;
        status(p, status);
        p.scheduled = notAfter(event.getScheduledTime(), event.getTime());
        if (event.getNode() != null && !event.getNode().isEmpty()) p.node = event.getNode();
        if (status == TaskStatus.Pending) p.node = null;
    }

    /**
     * A pod of another workload (docs/decisions/048-other-workloads.md): its intent and its pod event
     * in one record, folded into the gang of the PodGroup it names; a tombstone removes it, freeing
     * its node.
     */
    public void onWorkloadPod(String key, WorkloadPod pod) {
        TaskInfo template = null;
        String group = null;
        if (pod != null) {
            if (!pod.getSpec().getPod().equals(pod.getName())) {
                throw new MappingException(List.of(new Problem(
                        "spec.pod",
                        "\"" + pod.getSpec().getPod() + "\" is not the pod's name \"" + pod.getName() + "\"")));
            }
            template = PodMapping.toTaskInfo(pod.getSpec(), 0, TaskStatus.Pending, null);
            group = WorkloadKeys.groupKey(pod.getNamespace(), pod.getSpec().getPodGroup());
        }
        String previous = workloadPods.get(key);
        if (previous != null && !previous.equals(group)) {
            // Deleted, or now in another group: it leaves the gang it was in.
            JobEntry old = jobs.get(previous);
            if (old != null) {
                old.changed();
                remove(old, key.substring(key.indexOf('/') + 1));
                if (old.pods.isEmpty() && old.group == null) jobs.remove(previous);
            }
            workloadPods.remove(key);
        }
        if (pod == null) return;
        workloadPods.put(key, group);
        JobEntry j = job(group);
        PodEntry p = j.pods.computeIfAbsent(pod.getName(), n -> new PodEntry());
        j.changed();
        p.intent = pod.getSpec();
        p.template = template;
        p.ours = schedulerNames.contains(pod.getSpec().getSchedulerName());
        TaskStatus status = PodEventMapping.status(pod.getPhase(), pod.getNode(), false, pod.getDeleting());
        // A pending pod without a node does not undo an assumed binding: the record predates it.
        if (status == TaskStatus.Pending && p.status == TaskStatus.Binding) return;
        status(p, status);
        p.scheduled = notAfter(pod.getScheduledTime(), pod.getTime());
        if (pod.getNode() != null && !pod.getNode().isEmpty()) p.node = pod.getNode();
        if (status == TaskStatus.Pending) p.node = null;
    }

    /**
     * A pod cannot have been scheduled after the record that reports it was observed: a later time
     * (a clock skewed far into the future, a hand-made record) is taken as the record's own, so no
     * pod stays in the cdp plugin's cooldown beyond what it could have been.
     */
    static java.time.Instant notAfter(java.time.Instant scheduled, java.time.Instant observed) {
        return scheduled == null || observed == null || !scheduled.isAfter(observed) ? scheduled : observed;
    }

    /** A decision read back from the decisions topic, this instance's or a predecessor's. */
    public void onDecision(String key, SchedulerDecision decision) {
        if (decision == null) return;
        maxEpoch = Math.max(maxEpoch, decision.getEpoch());
        switch (decision.getDecision()) {
            case Bind b -> assumeBinding(key, b.getPod(), b.getNode(), b.getJobVersion());
            case Evict e -> assumeEviction(key, e.getPod());
            case PodGroupStatus s -> recordStatus(job(key), s, decision.getPodGroupVersion());
            default -> {
                // A decision kind this version does not know changes nothing it tracks.
            }
        }
    }

    /** Assumes a binding: the pod holds the node until a pod event says otherwise. */
    public void assumeBinding(String key, String pod, String node, int jobVersion) {
        // The decision may be read before the intent that describes the pod (two topics, no order
        // between them): keep the binding on an entry of its own, and the intent fills it in.
        JobEntry j = job(key);
        PodEntry p = j.pods.computeIfAbsent(pod, n -> {
            PodEntry fresh = new PodEntry();
            fresh.jobVersion = jobVersion;
            return fresh;
        });
        if (jobVersion < p.jobVersion || p.status != TaskStatus.Pending) return;
        j.changed();
        p.jobVersion = jobVersion;
        status(p, TaskStatus.Binding);
        p.node = node;
    }

    /** Assumes an eviction: the pod keeps its node's resources until it is gone. */
    public void assumeEviction(String key, String pod) {
        JobEntry j = jobs.get(key);
        PodEntry p = j == null ? null : j.pods.get(pod);
        if (p == null || !p.status.occupiesNode()) return;
        j.changed();
        status(p, TaskStatus.Releasing);
        p.deleting = true;
    }

    /** Records the status this session decided for the job's current pod group. */
    public void recordStatus(String key, PodGroupStatus status) {
        JobEntry j = job(key);
        recordStatus(j, status, j.group == null ? null : j.group.getJobVersion());
    }

    private static void recordStatus(JobEntry j, PodGroupStatus status, Integer podGroupVersion) {
        j.lastDecided = status;
        j.lastDecidedVersion = podGroupVersion;
        j.changed();
    }

    /**
     * The status last decided for the pod group (this session's or read back), or null. A status
     * decided for another incarnation of the group (an earlier job version, read back while catching
     * up, after the new group's record) is not about this one: its gang queues afresh.
     */
    public PodGroupStatus lastStatus(String key) {
        JobEntry j = jobs.get(key);
        return j == null ? null : decided(j);
    }

    private static PodGroupStatus decided(JobEntry j) {
        if (j.lastDecidedVersion != null && j.group != null && j.lastDecidedVersion != j.group.getJobVersion()) {
            return null;
        }
        return j.lastDecided;
    }

    /** The job version of the job's pod group as its record gives it; null before the record arrives. */
    public Integer podGroupVersion(String key) {
        JobEntry j = jobs.get(key);
        return j == null || j.group == null ? null : j.group.getJobVersion();
    }

    /** The pod group's name and the pod's version, as the decisions about them name them. */
    public String podGroupName(String key) {
        JobEntry j = jobs.get(key);
        return j == null || j.group == null ? key.substring(key.indexOf('/') + 1) : j.group.getName();
    }

    public int jobVersion(String key, String pod) {
        JobEntry j = jobs.get(key);
        PodEntry p = j == null ? null : j.pods.get(pod);
        return p == null ? 0 : p.jobVersion;
    }

    /** The highest epoch on any decision read so far. */
    public long maxEpoch() {
        return maxEpoch;
    }

    /** Bindings decided but not yet confirmed by a pod event. */
    public int unconfirmedBindings() {
        return unconfirmed;
    }

    /**
     * The snapshot a session works on. A job is in it when its pod group is known and its pods (if
     * any) are this scheduler's; every other pod that holds a node (another scheduler's, one
     * without an intent, one whose pod group is gone) counts as the node's other usage, so it is
     * never double-booked.
     */
    public Snapshot snapshot() {
        return snapshot(null);
    }

    /** The snapshot at a time (the sla plugin's clock: the loop's, as Volcano's scheduler uses its own). */
    public Snapshot snapshot(java.time.Instant now) {
        List<JobInfo> jobInfos = new ArrayList<>(jobs.size());
        Map<String, List<Other>> others = new HashMap<>();
        for (Map.Entry<String, JobEntry> e : jobs.entrySet()) {
            JobEntry j = e.getValue();
            if (!j.built) build(e.getKey(), j);
            for (Other o : j.otherUsage)
                others.computeIfAbsent(o.node(), k -> new ArrayList<>()).add(o);
            if (j.info != null) jobInfos.add(j.info);
        }
        List<NodeInfo> nodeInfos = new ArrayList<>(nodes.size());
        for (NodeInfo n : nodes.values()) {
            List<Other> on = others.get(n.name());
            if (on == null) {
                nodeInfos.add(n);
                continue;
            }
            Resource used = Resource.EMPTY;
            List<ForeignPod> specs = new ArrayList<>();
            for (Other o : on) {
                used = used.add(o.requests());
                if (o.pod() != null) specs.add(o.pod());
            }
            nodeInfos.add(n.withForeign(used, on.size(), specs));
        }
        return new Snapshot(nodeInfos, new ArrayList<>(queues.values()), jobInfos, Map.of(), now);
    }

    /** Rebuilds what a changed gang contributes to the snapshot: its JobInfo and its other usage. */
    private void build(String key, JobEntry j) {
        j.info = j.group == null ? null : jobInfo(j);
        List<Other> usage = List.of();
        String namespace = key.substring(0, Math.max(0, key.indexOf('/')));
        for (PodEntry p : j.pods.values()) {
            boolean inSnapshot = j.info != null && p.intent != null && p.ours;
            if (!inSnapshot && p.node != null && p.status.occupiesNode()) {
                if (usage.isEmpty()) usage = new ArrayList<>();
                // A pod being deleted no longer counts for the inter-pod rules (as a task releasing its node).
                ForeignPod spec = p.intent == null || p.status == TaskStatus.Releasing
                        ? null
                        : new ForeignPod(namespace, p.template.spec());
                usage.add(new Other(p.node, p.intent == null ? Resource.EMPTY : p.template.resreq(), spec));
            }
        }
        j.otherUsage = usage;
        j.built = true;
    }

    private JobInfo jobInfo(JobEntry j) {
        List<TaskInfo> tasks = new ArrayList<>(j.pods.size());
        boolean hasPods = false;
        for (PodEntry p : j.pods.values()) {
            if (p.intent == null) continue;
            hasPods = true;
            if (!p.ours) continue;
            String className = p.intent.getPriorityClassName();
            int priority = classes.podValue(p.intent.getPriority(), className);
            String policy = classes.podPreemptionPolicy(p.template.preemptionPolicy(), className);
            TaskInfo t = p.template
                    .withClass(priority, policy)
                    .with(p.status, p.status == TaskStatus.Pending ? null : p.node);
            // Only the cdp plugin reads the time, and only of a pod with a cooldown: the others are not copied again.
            if (t.cooldownTime() != null) t = t.withCooldown(t.cooldownTime(), p.scheduled);
            tasks.add(t);
        }
        // A gang whose pods all belong to another scheduler is that scheduler's to place.
        if (hasPods && tasks.isEmpty()) return null;
        // The group's priority is its class's now, as Volcano's snapshot sets it, not the record's.
        return j.groupInfo.with(phase(j), classes.valueOf(j.group.getSpec().getPriorityClassName()), tasks);
    }

    /**
     * The phase this scheduler last decided wins over the pod group record's, which lags behind it
     * (the job controller echoes what it observed). Completed is no exception: like Volcano's
     * jobStatus, each session works it out again from the tasks.
     */
    private static PodGroupPhase phase(JobEntry j) {
        PodGroupStatus decided = decided(j);
        return PodGroupMapping.phase(decided == null ? j.group.getStatus().getPhase() : decided.getPhase());
    }

    /** Sets a pod's status, keeping the count of unconfirmed bindings. */
    private void status(PodEntry p, TaskStatus status) {
        if (p.status == TaskStatus.Binding) unconfirmed--;
        if (status == TaskStatus.Binding) unconfirmed++;
        p.status = status;
    }

    private void remove(JobEntry j, String pod) {
        PodEntry p = j.pods.remove(pod);
        if (p != null && p.status == TaskStatus.Binding) unconfirmed--;
    }

    private JobEntry job(String key) {
        return jobs.computeIfAbsent(key, k -> new JobEntry());
    }

    /** The unconfirmed bindings counted by walking every pod, as the counter must always agree. */
    int countUnconfirmedBindings() {
        int n = 0;
        for (JobEntry j : jobs.values()) {
            for (PodEntry p : j.pods.values()) {
                if (p.status == TaskStatus.Binding) n++;
            }
        }
        return n;
    }
}
