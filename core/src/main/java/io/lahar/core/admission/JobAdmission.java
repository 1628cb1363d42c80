package io.lahar.core.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.scheduling.plugins.Cdp;
import io.lahar.core.scheduling.plugins.Sla;
import io.lahar.core.scheduling.plugins.Tdm;
import java.util.List;
import java.util.Optional;

/**
 * Volcano's job webhooks: mutate on create (defaults), then validate create (admit_job.go
 * validateJobCreate) or update (validateJobUpdate: only scaling fields may change).
 */
public final class JobAdmission {

    private JobAdmission() {}

    public static AdmissionResult<Job> create(Job job, AdmissionContext ctx) {
        Job defaulted = JobDefaults.apply(job);
        Violations v = new Violations();
        validateMetadata(defaulted, v);
        validateWaitingTime(defaulted, v);
        validateCooldownTime(defaulted, v);
        validateRevocable(defaulted, v);
        JobSpecValidation.validate(defaulted.name(), defaulted.spec(), ctx.limits(), v);
        if (defaulted.spec() != null) {
            validateQueue(defaulted.spec().queue(), ctx, "spec.queue", "job", v);
        }
        return AdmissionResult.of(defaulted, v.list());
    }

    /**
     * An update of {@code old} to {@code job}. Both are defaulted first (defaults are idempotent),
     * so a manifest re-applied without the defaults it got on create is not a change.
     */
    public static AdmissionResult<Job> update(Job old, Job job, AdmissionContext ctx) {
        Job before = JobDefaults.apply(old);
        Job after = JobDefaults.apply(job);
        Violations v = new Violations();
        validateCooldownTime(after, v);
        validateRevocable(after, v);
        if (!before.name().equals(after.name())) {
            v.add("metadata.name", "may not be changed on update (was \"" + before.name() + "\")");
        }
        JobSpec spec = after.spec();
        if (spec == null) {
            v.add("spec", "required");
            return AdmissionResult.reject(v.list());
        }
        List<TaskSpec> tasks = spec.tasksOrEmpty();
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i) == null) {
                v.add("spec.tasks[" + i + "]", "required");
            }
        }
        // Replicas may change on update: the same bounds as on create.
        JobSpecValidation.validateScale(spec, ctx.limits(), v);
        if (spec.minAvailable() != null && spec.minAvailable() < 0) {
            v.add("spec.minAvailable", "must be >= 0");
        }
        JobSpec oldSpec = before.spec() == null
                ? JobDefaults.apply(
                        new JobSpec(null, null, null, null, null, null, null, null, null, null, null, null, null))
                : before.spec();
        if (oldSpec.tasksOrEmpty().size() != tasks.size()) {
            v.add(
                    "spec.tasks",
                    "job updates may not add or remove tasks ("
                            + oldSpec.tasksOrEmpty().size() + " before, " + tasks.size() + " now)");
        } else {
            ObjectNode a = immutablePart(oldSpec);
            ObjectNode b = immutablePart(spec);
            diff(a, b, "spec", v);
        }
        return AdmissionResult.of(after, v.list());
    }

    /** The spec with the fields an update may change removed, as Volcano copies them over before comparing. */
    private static ObjectNode immutablePart(JobSpec spec) {
        ObjectNode tree = Manifests.toTree(spec);
        tree.remove("minAvailable");
        tree.remove("priorityClassName");
        JsonNode tasks = tree.path("tasks");
        if (tasks.isArray()) {
            for (JsonNode t : tasks) {
                if (t instanceof ObjectNode o) {
                    o.remove("replicas");
                    o.remove("minAvailable");
                }
            }
        }
        // The job controller fills volumeClaimName for an inline claim; it is not the user's change.
        JsonNode volumes = tree.path("volumes");
        if (volumes.isArray()) {
            for (JsonNode vol : volumes) {
                if (vol instanceof ObjectNode o && o.has("volumeClaim")) {
                    o.remove("volumeClaimName");
                }
            }
        }
        return tree;
    }

    private static final String IMMUTABLE = "may not be changed on update: only minAvailable, tasks[*].replicas,"
            + " tasks[*].minAvailable and priorityClassName may change";

    /** Reports each changed leaf (or list of another length) at its own path. */
    private static void diff(JsonNode a, JsonNode b, String path, Violations v) {
        if (a.equals(b)) {
            return;
        }
        if (a.isObject() && b.isObject()) {
            java.util.Set<String> fields = new java.util.LinkedHashSet<>();
            a.fieldNames().forEachRemaining(fields::add);
            b.fieldNames().forEachRemaining(fields::add);
            for (String f : fields) {
                diff(a.path(f), b.path(f), path + "." + f, v);
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                diff(a.get(i), b.get(i), path + "[" + i + "]", v);
            }
        } else {
            v.add(path, IMMUTABLE);
        }
    }

    /**
     * The sla plugin's {@code sla-waiting-time} annotation of a Job (copied onto its PodGroup) or a
     * PodGroup: a positive Go duration, or the scheduler could not carry it out.
     */
    static void validateWaitingTime(io.lahar.core.api.Manifest m, Violations v) {
        try {
            Sla.waitingTimeOf(m.metadata() == null ? null : m.metadata().annotations());
        } catch (IllegalArgumentException e) {
            v.add("metadata.annotations." + Sla.WAITING_TIME, e.getMessage());
        }
    }

    /**
     * The cdp plugin's {@code volcano.sh/cooldown-time} label or annotation of a Job (its tasks'
     * templates are {@link JobSpecValidation}'s), which go onto its pods: a Go duration, or the
     * plugin would ignore it (as Volcano's does, with a warning).
     */
    static void validateCooldownTime(Job job, Violations v) {
        if (job.metadata() != null) {
            validateCooldownTime(job.metadata().labels(), job.metadata().annotations(), "metadata.", v);
        }
    }

    static void validateCooldownTime(
            java.util.Map<String, String> labels, java.util.Map<String, String> annotations, String at, Violations v) {
        Cdp.cooldownTimeProblem(labels, null).ifPresent(m -> v.add(at + "labels." + PodLabels.COOLDOWN_TIME, m));
        Cdp.cooldownTimeProblem(annotations, null)
                .ifPresent(m -> v.add(at + "annotations." + PodLabels.COOLDOWN_TIME, m));
    }

    /** As above, of a pod template's metadata. */
    static void validateCooldownTime(JsonNode metadata, String at, Violations v) {
        validateCooldownTime(strings(metadata.path("labels")), strings(metadata.path("annotations")), at, v);
    }

    private static java.util.Map<String, String> strings(JsonNode map) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        if (map.isObject())
            map.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /**
     * The tdm plugin's annotations of a Job (copied onto its pods and PodGroup) or of a PodGroup:
     * only what the scheduler can carry out. Its task templates' are {@link JobSpecValidation}'s.
     */
    static void validateRevocable(io.lahar.core.api.Manifest m, Violations v) {
        validateRevocable(m.metadata() == null ? null : m.metadata().annotations(), "metadata.", v);
    }

    static void validateRevocable(java.util.Map<String, String> annotations, String at, Violations v) {
        Tdm.annotationProblems(annotations).forEach((key, why) -> v.add(at + "annotations." + key, why));
    }

    /** As above, of a pod template's metadata. */
    static void validateRevocable(JsonNode metadata, String at, Violations v) {
        validateRevocable(strings(metadata.path("annotations")), at, v);
    }

    static void validateMetadata(io.lahar.core.api.Manifest m, Violations v) {
        String name = m.name();
        if (name.isEmpty()) {
            v.add("metadata.name", "required");
            return;
        }
        List<String> errs = Names.dns1123Subdomain(name);
        if (errs.isEmpty() && name.length() > Names.DNS1123_LABEL_MAX) {
            errs = List.of("must be no more than " + Names.DNS1123_LABEL_MAX + " characters");
        }
        if (!errs.isEmpty()) {
            v.add("metadata.name", "invalid name \"" + name + "\": " + Names.join(errs));
        }
        if (m.metadata() != null && m.metadata().labels() != null) {
            Names.labels(
                    io.lahar.core.api.Manifests.jsonMapper()
                            .valueToTree(m.metadata().labels()),
                    "metadata.labels",
                    v);
        }
        if (m.metadata() != null && m.metadata().annotations() != null) {
            Names.annotations(
                    io.lahar.core.api.Manifests.jsonMapper()
                            .valueToTree(m.metadata().annotations()),
                    "metadata.annotations",
                    v);
        }
        String ns = m.metadata() == null ? null : m.metadata().namespace();
        if (ns != null && !ns.isEmpty() && !Names.dns1123Label(ns).isEmpty()) {
            v.add("metadata.namespace", "invalid namespace \"" + ns + "\": " + Names.join(Names.dns1123Label(ns)));
        }
    }

    /** A job (or pod group) may only go to an existing, open leaf queue other than root. */
    static void validateQueue(String queueName, AdmissionContext ctx, String path, String what, Violations v) {
        Optional<Queue> queue = ctx.queue(queueName);
        if (queue.isEmpty()) {
            v.add(path, "queue \"" + queueName + "\" not found");
            return;
        }
        if (Queue.ROOT.equals(queueName)) {
            v.add(path, "can not submit " + what + " to root queue");
            return;
        }
        List<Queue> children = ctx.childrenOf(queueName);
        if (!children.isEmpty()) {
            v.add(
                    path,
                    "can only submit " + what + " to leaf queue: queue \"" + queueName + "\" has child queues ("
                            + String.join(
                                    ", ",
                                    children.stream().map(Queue::name).sorted().toList()) + ")");
        }
        QueueState state = queue.get().stateOrOpen();
        if (state != QueueState.Open) {
            v.add(
                    path,
                    "can only submit " + what + " to queue with state Open, queue \"" + queueName + "\" status is "
                            + state.name());
        }
    }
}
