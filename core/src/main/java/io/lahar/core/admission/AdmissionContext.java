package io.lahar.core.admission;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PriorityClass;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What admission looks up: the objects that already exist. Immutable; {@link #with} and
 * {@link #without} return a new context, so a batch of manifests can be admitted in order, each
 * seeing the ones before it. Namespaced objects are keyed {@code namespace/name}.
 */
public final class AdmissionContext {

    private final Map<String, Queue> queues;
    private final Map<String, JobTemplate> templates;
    private final Map<String, JobFlow> flows;
    private final Map<String, Job> jobs;
    private final Map<String, PodGroup> podGroups;
    private final Map<String, PriorityClass> priorityClasses;
    private final Map<String, CronJob> cronJobs;
    private final AdmissionLimits limits;

    private AdmissionContext(
            Map<String, Queue> queues,
            Map<String, JobTemplate> templates,
            Map<String, JobFlow> flows,
            Map<String, Job> jobs,
            Map<String, PodGroup> podGroups,
            Map<String, PriorityClass> priorityClasses,
            Map<String, CronJob> cronJobs,
            AdmissionLimits limits) {
        this.cronJobs = cronJobs;
        this.limits = limits;
        this.queues = queues;
        this.templates = templates;
        this.flows = flows;
        this.jobs = jobs;
        this.podGroups = podGroups;
        this.priorityClasses = priorityClasses;
    }

    /** Nothing exists, not even the root queue; the default limits. */
    public static AdmissionContext empty() {
        return new AdmissionContext(
                Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), AdmissionLimits.DEFAULTS);
    }

    /** A fresh Volcano install: the {@code root} queue and the open leaf {@code default} under it. */
    public static AdmissionContext freshInstall() {
        return empty().with(openQueue(Queue.ROOT, null)).with(openQueue(Queue.DEFAULT, Queue.ROOT));
    }

    /**
     * The context of {@code existing} objects. When they include no Queue, the fresh-install queues
     * exist; when they include some, exactly those exist, plus {@code root} (Volcano always has it).
     */
    public static AdmissionContext of(Collection<? extends Manifest> existing) {
        boolean anyQueue = existing.stream().anyMatch(m -> m instanceof Queue);
        AdmissionContext ctx = anyQueue ? empty().with(openQueue(Queue.ROOT, null)) : freshInstall();
        for (Manifest m : existing) {
            ctx = ctx.with(m);
        }
        return ctx;
    }

    public static Queue openQueue(String name, String parent) {
        return new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named(name),
                new Queue.QueueSpec(1, null, true, null, parent, null, null, null, null, null, null),
                Queue.QueueStatus.of(QueueState.Open));
    }

    static String key(Manifest m) {
        return m.namespace() + "/" + m.name();
    }

    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /** This context with {@code m} added (or replacing the object of the same kind and name). */
    public AdmissionContext with(Manifest m) {
        return switch (m) {
            case Queue q ->
                new AdmissionContext(
                        put(queues, q.name(), q), templates, flows, jobs, podGroups, priorityClasses, cronJobs, limits);
            case JobTemplate t ->
                new AdmissionContext(
                        queues, put(templates, key(t), t), flows, jobs, podGroups, priorityClasses, cronJobs, limits);
            case JobFlow f ->
                new AdmissionContext(
                        queues, templates, put(flows, key(f), f), jobs, podGroups, priorityClasses, cronJobs, limits);
            case Job j ->
                new AdmissionContext(
                        queues, templates, flows, put(jobs, key(j), j), podGroups, priorityClasses, cronJobs, limits);
            case PodGroup p ->
                new AdmissionContext(
                        queues, templates, flows, jobs, put(podGroups, key(p), p), priorityClasses, cronJobs, limits);
            case PriorityClass p ->
                new AdmissionContext(
                        queues, templates, flows, jobs, podGroups, put(priorityClasses, p.name(), p), cronJobs, limits);
            case CronJob c ->
                new AdmissionContext(
                        queues, templates, flows, jobs, podGroups, priorityClasses, put(cronJobs, key(c), c), limits);
        };
    }

    /** This context with {@code m} deleted. */
    public AdmissionContext without(Manifest m) {
        return switch (m) {
            case Queue q ->
                new AdmissionContext(
                        remove(queues, q.name()), templates, flows, jobs, podGroups, priorityClasses, cronJobs, limits);
            case JobTemplate t ->
                new AdmissionContext(
                        queues, remove(templates, key(t)), flows, jobs, podGroups, priorityClasses, cronJobs, limits);
            case JobFlow f ->
                new AdmissionContext(
                        queues, templates, remove(flows, key(f)), jobs, podGroups, priorityClasses, cronJobs, limits);
            case Job j ->
                new AdmissionContext(
                        queues, templates, flows, remove(jobs, key(j)), podGroups, priorityClasses, cronJobs, limits);
            case PodGroup p ->
                new AdmissionContext(
                        queues, templates, flows, jobs, remove(podGroups, key(p)), priorityClasses, cronJobs, limits);
            case PriorityClass p ->
                new AdmissionContext(
                        queues, templates, flows, jobs, podGroups, remove(priorityClasses, p.name()), cronJobs, limits);
            case CronJob c ->
                new AdmissionContext(
                        queues, templates, flows, jobs, podGroups, priorityClasses, remove(cronJobs, key(c)), limits);
        };
    }

    /** This context with other limits. */
    public AdmissionContext withLimits(AdmissionLimits next) {
        return new AdmissionContext(queues, templates, flows, jobs, podGroups, priorityClasses, cronJobs, next);
    }

    /** The bounds on the numbers a manifest may ask for. */
    public AdmissionLimits limits() {
        return limits;
    }

    /** The stored object of the same kind, namespace and name as {@code m}, if any. */
    public Optional<Manifest> find(Manifest m) {
        return Optional.ofNullable(
                switch (m) {
                    case Queue q -> queues.get(q.name());
                    case JobTemplate t -> templates.get(key(t));
                    case JobFlow f -> flows.get(key(f));
                    case Job j -> jobs.get(key(j));
                    case PodGroup p -> podGroups.get(key(p));
                    case PriorityClass p -> priorityClasses.get(p.name());
                    case CronJob c -> cronJobs.get(key(c));
                });
    }

    public Optional<Queue> queue(String name) {
        return Optional.ofNullable(queues.get(name));
    }

    public Collection<Queue> queues() {
        return queues.values();
    }

    /** The queues whose parent is {@code name}. */
    public List<Queue> childrenOf(String name) {
        List<Queue> out = new ArrayList<>();
        for (Queue q : queues.values()) {
            if (!q.name().equals(name) && q.parentOrRoot().equals(name)) {
                out.add(q);
            }
        }
        return out;
    }

    public Optional<JobTemplate> template(String namespace, String name) {
        return Optional.ofNullable(templates.get(key(namespace, name)));
    }

    public Collection<JobTemplate> templates() {
        return templates.values();
    }

    public Collection<JobFlow> flows() {
        return flows.values();
    }

    public Collection<Job> jobs() {
        return jobs.values();
    }

    public Collection<PodGroup> podGroups() {
        return podGroups.values();
    }

    public Optional<PriorityClass> priorityClass(String name) {
        return Optional.ofNullable(priorityClasses.get(name));
    }

    public Collection<PriorityClass> priorityClasses() {
        return priorityClasses.values();
    }

    private static <V> Map<String, V> put(Map<String, V> map, String key, V value) {
        Map<String, V> copy = new LinkedHashMap<>(map);
        copy.put(key, value);
        return java.util.Collections.unmodifiableMap(copy);
    }

    private static <V> Map<String, V> remove(Map<String, V> map, String key) {
        Map<String, V> copy = new LinkedHashMap<>(map);
        copy.remove(key);
        return java.util.Collections.unmodifiableMap(copy);
    }
}
