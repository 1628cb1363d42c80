package io.lahar.core.sim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.PodGroups;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.ForeignPod;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodSpecReader;
import io.lahar.core.scheduling.api.PriorityClasses;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.SubGroupPolicy;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.plugins.Cdp;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster as {@code lahar plan} sees it between sessions: nodes, queues, the pod groups with
 * their pods, and the jobs admission rejected. Built from a {@link PlanInput} the way Volcano's
 * controllers would have built it (admission, then one PodGroup per job as the job engine makes it,
 * see {@link PodGroups}), and moved on by {@link #apply} with what a session decided.
 *
 * <p>Pods of a job exist only once its pod group has left Pending: Volcano's job controller
 * creates them after enqueue, so a new job is enqueued in one session and allocated in the next.
 *
 * @param groups   the pod groups in input order, each with the pods its job has yet to create
 * @param rejected the jobs admission refused, with every violation
 * @param namespaces the labels of the namespaces the input lists (v1 Namespaces), for namespace selectors
 * @param now      the time the sessions run at (the sla plugin's clock): given, or the latest creation
 *                 time of the input's jobs and pod groups; null when none has one
 */
public record PlanWorld(
        List<NodeInfo> nodes,
        List<QueueInfo> queues,
        List<Group> groups,
        List<Rejection> rejected,
        Map<String, Map<String, String>> namespaces,
        Instant now) {

    /**
     * A pod group and its pods.
     *
     * @param info     the pod group as the scheduler reads it
     * @param toCreate pods its job creates once the group is past Pending
     * @param ownedByJob whether a Volcano Job stands behind it (an evicted pod is then created again,
     *                 pending, by the job controller; a bare pod group's evicted pod is gone)
     */
    public record Group(JobInfo info, List<TaskInfo> toCreate, boolean ownedByJob) {
        public Group {
            toCreate = List.copyOf(toCreate);
        }
    }

    /** A job admission refused. */
    public record Rejection(String namespace, String name, List<Violation> violations) {}

    public PlanWorld {
        nodes = List.copyOf(nodes);
        queues = List.copyOf(queues);
        groups = List.copyOf(groups);
        rejected = List.copyOf(rejected);
        namespaces = namespaces == null ? Map.of() : Map.copyOf(namespaces);
    }

    /** The scheduler's picture of this world. */
    public Snapshot snapshot() {
        List<JobInfo> jobs = new ArrayList<>(groups.size());
        for (Group g : groups) jobs.add(g.info());
        return new Snapshot(nodes, queues, jobs, namespaces, now);
    }

    /** What changed when a session's result was applied. */
    public record Step(PlanWorld world, boolean changed) {}

    /**
     * The world after a session: bound tasks run on their node, evicted ones are pending again
     * (or gone, without a job), pod groups take their new phase, and a job whose group left
     * Pending has its pods created. Nominations are promises only and change nothing.
     */
    public Step apply(io.lahar.core.scheduling.framework.SessionResult result) {
        Map<String, io.lahar.core.scheduling.framework.SessionResult.Binding> bound = new HashMap<>();
        for (var b : result.bindings()) bound.put(b.job() + "\0" + b.task(), b);
        Map<String, io.lahar.core.scheduling.framework.SessionResult.Eviction> evicted = new HashMap<>();
        for (var e : result.evictions()) evicted.put(e.job() + "\0" + e.task(), e);
        boolean changed = !result.bindings().isEmpty()
                || !result.evictions().isEmpty()
                || !result.phaseChanges().isEmpty();
        List<Group> next = new ArrayList<>(groups.size());
        for (Group g : groups) {
            JobInfo j = g.info();
            List<TaskInfo> tasks =
                    new ArrayList<>(j.tasks().size() + g.toCreate().size());
            for (TaskInfo t : j.tasks()) {
                String k = j.key() + "\0" + t.name();
                var b = bound.get(k);
                if (b != null) {
                    tasks.add(with(t, TaskStatus.Running, b.node()));
                } else if (evicted.containsKey(k)) {
                    if (g.ownedByJob()) tasks.add(with(t, TaskStatus.Pending, null));
                } else {
                    tasks.add(t);
                }
            }
            PodGroupPhase phase = result.phaseOf(j.key(), j.phase());
            List<TaskInfo> toCreate = g.toCreate();
            if (phase != PodGroupPhase.Pending && !toCreate.isEmpty()) {
                tasks.addAll(toCreate);
                toCreate = List.of();
                changed = true;
            }
            next.add(new Group(j.with(phase, tasks), toCreate, g.ownedByJob()));
        }
        return new Step(new PlanWorld(nodes, queues, next, rejected, namespaces, now), changed);
    }

    static TaskInfo with(TaskInfo t, TaskStatus status, String node) {
        return t.with(status, node);
    }

    /** The world the input describes; every problem found on the way is added to {@code problems}. */
    public static PlanWorld build(PlanInput input, List<Problem> problems) {
        return build(input, null, problems);
    }

    /**
     * As above, at the given time (null: a compact snapshot's {@code now}, else the latest creation
     * time of the input's jobs and pod groups).
     */
    public static PlanWorld build(PlanInput input, Instant now, List<Problem> problems) {
        PlanWorld w = new Builder(input, problems).build();
        Instant at = now;
        for (Snapshot c : input.compact()) {
            if (at == null && c.now() != null) at = c.now();
        }
        if (at == null) {
            for (Group g : w.groups()) {
                Instant c = g.info().creationTime();
                if (c != null && (at == null || c.isAfter(at))) at = c;
            }
        }
        return new PlanWorld(w.nodes(), w.queues(), w.groups(), w.rejected(), w.namespaces(), at);
    }

    private static final class Builder {
        private final PlanInput in;
        private final List<Problem> problems;
        private PriorityClasses classes = PriorityClasses.NONE;
        /** Pods by namespace/name, removed as they are claimed by a pod group. */
        private final Map<String, PlanInput.PodDocument> unclaimed = new LinkedHashMap<>();

        Builder(PlanInput in, List<Problem> problems) {
            this.in = in;
            this.problems = problems;
        }

        PlanWorld build() {
            classes = PriorityClasses.of(in.priorityClasses());
            for (PlanInput.PodDocument p : in.pods()) {
                String key = ns(p.tree()) + "/"
                        + p.tree().path("metadata").path("name").asText();
                if (unclaimed.putIfAbsent(key, p) != null)
                    problems.add(new Problem(p.path() + ".metadata.name", "duplicate pod \"" + key + "\""));
            }
            List<Manifest> existing = new ArrayList<>(in.queues());
            existing.addAll(in.priorityClasses());
            AdmissionContext ctx = AdmissionContext.of(existing);
            for (Snapshot c : in.compact()) {
                for (QueueInfo q : c.queues()) ctx = ctx.with(compactQueue(q)); // jobs may name these queues
            }
            // Volcano's controller always keeps the default queue, listed or not.
            if (ctx.queue(Queue.DEFAULT).isEmpty())
                ctx = ctx.with(AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT));

            Map<String, PodGroup> pgDocs = new LinkedHashMap<>();
            for (PodGroup g : in.podGroups()) pgDocs.put(g.namespace() + "/" + g.name(), g);
            List<Group> groups = new ArrayList<>();
            List<Rejection> rejected = new ArrayList<>();
            int ordinal = 0;
            for (Job job : in.jobs()) {
                ordinal++;
                AdmissionResult<Job> r = JobAdmission.create(job, existingJobContext(job, ctx, pgDocs));
                if (!r.accepted()) {
                    rejected.add(new Rejection(job.namespace(), job.name(), r.violations()));
                    continue;
                }
                Job admitted = r.object();
                ctx = ctx.with(admitted);
                PodGroup made = PodGroups.build(admitted);
                PodGroup doc = pgDocs.remove(made.namespace() + "/" + made.name());
                groups.add(fromJob(admitted, made, doc, ordinal));
            }
            for (PodGroup g : pgDocs.values()) {
                ordinal++;
                groups.add(bare(g, ordinal));
            }
            for (Snapshot c : in.compact()) {
                for (JobInfo j : c.jobs()) groups.add(new Group(j, List.of(), false));
            }
            Map<String, NodeInfo> nodes = new LinkedHashMap<>();
            for (NodeInfo n : in.nodes()) nodes.putIfAbsent(n.name(), n);
            for (Snapshot c : in.compact()) {
                for (NodeInfo n : c.nodes()) nodes.putIfAbsent(n.name(), n);
            }
            for (PlanInput.PodDocument p : unclaimed.values()) foreign(p, nodes);
            List<QueueInfo> queues = new ArrayList<>();
            for (Queue q : in.queues()) queues.add(queue(q));
            for (Snapshot c : in.compact()) queues.addAll(c.queues());
            Map<String, Map<String, String>> namespaces = new LinkedHashMap<>(in.namespaces());
            for (Snapshot c : in.compact()) namespaces.putAll(c.namespaces());
            return new PlanWorld(new ArrayList<>(nodes.values()), queues, groups, rejected, namespaces, null);
        }

        /**
         * A job whose pod group is in the snapshot exists already: it was admitted while its queue
         * was open, and closing a queue keeps the jobs it has (Volcano rejects only new ones).
         */
        private static AdmissionContext existingJobContext(
                Job job, AdmissionContext ctx, Map<String, PodGroup> pgDocs) {
            if (job.spec() == null || !pgDocs.containsKey(job.namespace() + "/" + PodGroups.name(job))) return ctx;
            String name = job.spec().queue() == null || job.spec().queue().isEmpty()
                    ? Queue.DEFAULT
                    : job.spec().queue();
            Optional<Queue> q = ctx.queue(name);
            if (q.isEmpty() || q.get().stateOrOpen() == io.lahar.core.api.QueueState.Open) return ctx;
            return ctx.with(q.get().withStatus(Queue.QueueStatus.of(io.lahar.core.api.QueueState.Open)));
        }

        private Group fromJob(Job job, PodGroup pg, PodGroup doc, int ordinal) {
            PodGroupPhase phase = phaseOf(doc);
            JobInfo.Builder b = header(
                    pg,
                    phase,
                    created(
                            job.metadata() == null ? null : job.metadata().creationTimestamp(),
                            "Job " + job.namespace() + "/" + job.name(),
                            ordinal));
            sla(b, job.metadata(), "Job " + job.namespace() + "/" + job.name());
            tdm(b, job.metadata());
            List<TaskInfo> toCreate = new ArrayList<>();
            String jobPriorityClass = job.spec().priorityClassName();
            for (TaskSpec t : job.spec().tasksOrEmpty()) {
                for (int i = 0; i < t.replicasOrZero(); i++) {
                    String podName = JobPods.podName(job.name(), t.name(), i);
                    PlanInput.PodDocument existing = unclaimed.remove(job.namespace() + "/" + podName);
                    if (existing != null) {
                        b.task(fromPod(existing, t.name()));
                    } else {
                        TaskInfo task = fromTemplate(job, t, i, pg.name(), jobPriorityClass);
                        if (phase == PodGroupPhase.Pending) toCreate.add(task);
                        else b.task(task);
                    }
                }
            }
            claimPodsOf(pg, b);
            return new Group(b.build(), toCreate, true);
        }

        private Group bare(PodGroup pg, int ordinal) {
            JobInfo.Builder b = header(
                    pg,
                    phaseOf(pg),
                    created(
                            pg.metadata() == null ? null : pg.metadata().creationTimestamp(),
                            "PodGroup " + pg.namespace() + "/" + pg.name(),
                            ordinal));
            sla(b, pg.metadata(), "PodGroup " + pg.namespace() + "/" + pg.name());
            tdm(b, pg.metadata());
            claimPodsOf(pg, b);
            return new Group(b.build(), List.of(), false);
        }

        private JobInfo.Builder header(PodGroup pg, PodGroupPhase phase, long creationIndex) {
            PodGroup.PodGroupSpec spec = pg.spec();
            JobInfo.Builder b = JobInfo.builder(pg.name())
                    .namespace(pg.namespace())
                    .phase(phase)
                    .creationIndex(creationIndex);
            if (spec == null) return b.minMember(0);
            b.queue(spec.queue())
                    .priority(classValue(spec.priorityClassName()))
                    .minMember(spec.minMember() == null ? 0 : spec.minMember());
            if (spec.minTaskMember() != null) spec.minTaskMember().forEach(b::minTaskMember);
            if (spec.subGroupPolicy() != null) {
                spec.subGroupPolicy().forEach(p -> b.subGroupPolicy(SubGroupPolicy.of(p)));
            }
            try {
                b.minResources(Resource.parse(spec.minResources()));
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(
                        "PodGroup " + pg.namespace() + "/" + pg.name() + ".spec.minResources", e.getMessage()));
                b.minResources(Resource.EMPTY);
            }
            return b;
        }

        /** Pods that name the pod group in Volcano's group-name annotation (and were not claimed by name). */
        private void claimPodsOf(PodGroup pg, JobInfo.Builder b) {
            var it = unclaimed.values().iterator();
            while (it.hasNext()) {
                PlanInput.PodDocument p = it.next();
                JsonNode meta = p.tree().path("metadata");
                if (ns(p.tree()).equals(pg.namespace())
                        && pg.name()
                                .equals(meta.path("annotations")
                                        .path(PodLabels.GROUP_NAME)
                                        .asText(null))) {
                    b.task(fromPod(p, role(meta)));
                    it.remove();
                }
            }
        }

        private static String role(JsonNode meta) {
            String r = meta.path("annotations").path(PodLabels.TASK_SPEC).asText("");
            return r.isEmpty() ? meta.path("labels").path(PodLabels.TASK_SPEC).asText("") : r;
        }

        private PodGroupPhase phaseOf(PodGroup doc) {
            if (doc == null || doc.status() == null || doc.status().phase() == null) return PodGroupPhase.Pending;
            return switch (doc.status().phase()) {
                case Pending -> PodGroupPhase.Pending;
                case Inqueue -> PodGroupPhase.Inqueue;
                case Running -> PodGroupPhase.Running;
                case Unknown -> PodGroupPhase.Unknown;
                case Completed -> PodGroupPhase.Completed;
            };
        }

        /**
         * The order of creation: the timestamp's second first (Kubernetes keeps no finer time),
         * the position in the input next. A missing timestamp is Kubernetes' zero time.
         */
        private long created(String timestamp, String what, int ordinal) {
            long seconds = 0;
            if (timestamp != null && !timestamp.isEmpty()) {
                try {
                    seconds = Instant.parse(timestamp).getEpochSecond();
                } catch (DateTimeParseException e) {
                    problems.add(new Problem(
                            what + ".metadata.creationTimestamp", "not an RFC 3339 time: \"" + timestamp + "\""));
                }
            }
            return seconds * 1_000_000L + ordinal;
        }

        /**
         * What the sla plugin reads: the creation time, and the {@code sla-waiting-time}
         * annotation (Volcano's job controller gives the pod group the job's annotations).
         */
        private void sla(JobInfo.Builder b, io.lahar.core.api.ObjectMeta meta, String what) {
            if (meta == null) return;
            String ts = meta.creationTimestamp();
            if (ts != null && !ts.isEmpty()) {
                try {
                    b.creationTime(Instant.parse(ts));
                } catch (DateTimeParseException e) {
                    // reported by created()
                }
            }
            try {
                io.lahar.core.scheduling.plugins.Sla.waitingTimeOf(meta.annotationsOrEmpty())
                        .ifPresent(b::slaWaitingTime);
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(
                        what + ".metadata.annotations." + io.lahar.core.scheduling.plugins.Sla.WAITING_TIME,
                        e.getMessage()));
            }
        }

        /**
         * What the tdm plugin reads of a pod group: its preemptable annotation or label and its
         * disruption budget (Volcano's job controller gives the pod group the job's).
         */
        private static void tdm(JobInfo.Builder b, io.lahar.core.api.ObjectMeta meta) {
            if (meta == null) return;
            b.preemptable(JobInfo.preemptableOf(meta.labelsOrEmpty(), meta.annotationsOrEmpty()));
            b.budget(io.lahar.core.scheduling.api.DisruptionBudget.of(meta.annotationsOrEmpty()));
        }

        private int classValue(String name) {
            return classes.valueOf(name);
        }

        private TaskInfo fromTemplate(Job job, TaskSpec t, int index, String podGroup, String jobPriorityClass) {
            // The pod as Volcano's job controller creates it: the template's labels and its own.
            JsonNode pod = JobPods.create(job, t, index, 0, 0, podGroup, List.of());
            TaskInfo.Builder b =
                    TaskInfo.builder(pod.path("metadata").path("name").asText()).role(t.name());
            JsonNode spec = t.template() == null
                    ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                    : t.template().path("spec");
            PodSpecs.read(
                    spec,
                    PodSpecReader.labels(pod.path("metadata")),
                    "Job " + job.namespace() + "/" + job.name() + ".spec.tasks[" + t.name() + "].template.spec",
                    b,
                    problems);
            String cls = spec.path("priorityClassName").asText("");
            String podClass = cls.isEmpty() ? jobPriorityClass : cls;
            b.priority(classValue(podClass));
            b.preemptionPolicy(classes.podPreemptionPolicy(PodSpecs.preemptionPolicy(spec), podClass));
            // The pod's own metadata: the template's, with what the job controller copies from the Job.
            JsonNode meta = pod.path("metadata");
            podFacts(b, meta);
            b.cooldownTime(Cdp.cooldownTimeOf(PodSpecReader.labels(meta), annotations(meta))
                    .orElse(null));
            return b.build();
        }

        private TaskInfo fromPod(PlanInput.PodDocument p, String role) {
            JsonNode pod = p.tree();
            JsonNode spec = pod.path("spec");
            TaskInfo.Builder b =
                    TaskInfo.builder(pod.path("metadata").path("name").asText()).role(role);
            PodSpecs.read(spec, PodSpecReader.labels(pod.path("metadata")), p.path() + ".spec", b, problems);
            b.priority(classes.podValue(
                    spec.path("priority").canConvertToInt()
                            ? spec.path("priority").asInt()
                            : null,
                    spec.path("priorityClassName").asText("")));
            b.preemptionPolicy(classes.podPreemptionPolicy(
                    PodSpecs.preemptionPolicy(spec),
                    spec.path("priorityClassName").asText("")));
            podFacts(b, pod.path("metadata"));
            cooldown(p, b);
            TaskStatus status = status(pod);
            String node = spec.path("nodeName").asText("");
            if (!node.isEmpty()) b.on(node, status);
            else b.status(status == TaskStatus.Running || status == TaskStatus.Bound ? TaskStatus.Pending : status);
            return b.build();
        }

        /**
         * The cdp plugin's view of a pod: its cooldown-time (one that is no duration, which Volcano
         * ignores, is a problem) and when its PodScheduled condition turned True.
         */
        private void cooldown(PlanInput.PodDocument p, TaskInfo.Builder b) {
            JsonNode meta = p.tree().path("metadata");
            Map<String, String> labels = PodSpecReader.labels(meta);
            Map<String, String> annotations = annotations(meta);
            Optional<String> bad = Cdp.cooldownTimeProblem(labels, annotations);
            if (bad.isPresent()) {
                String where = labels.containsKey(PodLabels.COOLDOWN_TIME) ? "labels" : "annotations";
                problems.add(new Problem(p.path() + ".metadata." + where + "." + PodLabels.COOLDOWN_TIME, bad.get()));
            }
            b.cooldownTime(Cdp.cooldownTimeOf(labels, annotations).orElse(null));
            JsonNode conditions = p.tree().path("status").path("conditions");
            for (int i = 0; i < conditions.size(); i++) {
                JsonNode c = conditions.get(i);
                if (!"PodScheduled".equals(c.path("type").asText())
                        || !"True".equals(c.path("status").asText())) {
                    continue;
                }
                String at = c.path("lastTransitionTime").asText("");
                try {
                    if (!at.isEmpty()) b.scheduledTime(Instant.parse(at));
                } catch (java.time.format.DateTimeParseException e) {
                    problems.add(new Problem(
                            p.path() + ".status.conditions[" + i + "].lastTransitionTime",
                            "not an RFC 3339 time: \"" + at + "\""));
                }
                break;
            }
        }

        private static Map<String, String> annotations(JsonNode meta) {
            Map<String, String> out = new java.util.TreeMap<>();
            meta.path("annotations")
                    .properties()
                    .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        }

        /** Volcano's GetPodPreemptable and GetPodRevocableZone, from the pod's metadata. */
        private static void podFacts(TaskInfo.Builder b, JsonNode meta) {
            Map<String, String> annotations = annotations(meta);
            b.preemptable(TaskInfo.preemptableOf(PodSpecReader.labels(meta), annotations));
            b.revocableZone(TaskInfo.revocableZoneOf(annotations));
        }

        /** As Volcano's getTaskStatus: a pod being deleted is Releasing, a bound pending pod Bound. */
        private static TaskStatus status(JsonNode pod) {
            boolean onNode = !pod.path("spec").path("nodeName").asText("").isEmpty();
            boolean deleting =
                    !pod.path("metadata").path("deletionTimestamp").asText("").isEmpty();
            String phase = pod.path("status").path("phase").asText("");
            return switch (phase) {
                case "Succeeded" -> TaskStatus.Succeeded;
                case "Failed" -> TaskStatus.Failed;
                case "Unknown" -> TaskStatus.Unknown;
                case "Pending" -> !onNode ? TaskStatus.Pending : deleting ? TaskStatus.Releasing : TaskStatus.Bound;
                default -> !onNode ? TaskStatus.Pending : deleting ? TaskStatus.Releasing : TaskStatus.Running;
            };
        }

        /**
         * A bound pod of no pod group in the snapshot: it uses its node's resources, and its labels,
         * anti-affinity and host ports count for the inter-pod rules.
         */
        private void foreign(PlanInput.PodDocument p, Map<String, NodeInfo> nodes) {
            JsonNode pod = p.tree();
            String nodeName = pod.path("spec").path("nodeName").asText("");
            TaskStatus s = status(pod);
            if (nodeName.isEmpty() || !s.occupiesNode()) return; // pending elsewhere or finished: holds nothing
            NodeInfo n = nodes.get(nodeName);
            if (n == null) {
                problems.add(new Problem(p.path() + ".spec.nodeName", "unknown node \"" + nodeName + "\""));
                return;
            }
            TaskInfo.Builder b = TaskInfo.builder(p.path());
            PodSpecs.read(
                    pod.path("spec"), PodSpecReader.labels(pod.path("metadata")), p.path() + ".spec", b, problems);
            TaskInfo read = b.build();
            nodes.put(nodeName, n.withForeign(read.resreq(), 1, List.of(new ForeignPod(ns(pod), read.spec()))));
        }

        /** A queue of the compact format as admission sees it: its parent and state. */
        private static Queue compactQueue(QueueInfo q) {
            Queue open = AdmissionContext.openQueue(q.name(), q.parent());
            return open.withStatus(Queue.QueueStatus.of(
                    io.lahar.core.api.QueueState.valueOf(q.state().name())));
        }

        private QueueInfo queue(Queue q) {
            Queue.QueueSpec s = q.spec();
            String path = "Queue " + q.name() + ".spec";
            Resource cap = null;
            Resource guarantee = null;
            if (s != null && s.capability() != null) {
                try {
                    cap = Resource.parseLimit(s.capability());
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem(path + ".capability", e.getMessage()));
                }
            }
            if (s != null && s.guarantee() != null && s.guarantee().resource() != null) {
                try {
                    guarantee = Resource.parse(s.guarantee().resource());
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem(path + ".guarantee.resource", e.getMessage()));
                }
            }
            QueueState state = switch (q.stateOrOpen()) {
                case Open -> QueueState.Open;
                case Closed -> QueueState.Closed;
                case Closing -> QueueState.Closing;
                default -> QueueState.Unknown;
            };
            Resource deserved = null;
            if (s != null && s.deserved() != null) {
                try {
                    deserved = Resource.parse(s.deserved());
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem(path + ".deserved", e.getMessage()));
                }
            }
            int weight = s == null || s.weight() == null ? 1 : s.weight();
            boolean reclaimable = s == null || s.reclaimable() == null || s.reclaimable();
            String parent = s == null ? null : s.parent();
            int priority = s == null || s.priority() == null ? 0 : s.priority();
            return new QueueInfo(q.name(), weight, cap, guarantee, reclaimable, parent, state, priority, deserved);
        }

        private static String ns(JsonNode doc) {
            String n = doc.path("metadata").path("namespace").asText("");
            return n.isEmpty() ? "default" : n;
        }
    }

    /** Looks a pod group up by key. */
    public Optional<Group> group(String key) {
        return groups.stream().filter(g -> g.info().key().equals(key)).findFirst();
    }
}
