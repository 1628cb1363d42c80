package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.PodGroupAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.PriorityClasses;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.Toleration;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import io.lahar.schema.codec.PodGroupCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Other workloads — PodGroup CRs that no Lahar Job owns, their pods, and bare pods with the
 * scheduler's name — to Lahar's records, and the scheduler's verdict back onto the CR
 * (docs/decisions/048-other-workloads.md). Volcano's names and rules: a pod joins a PodGroup by the
 * annotation {@code scheduling.k8s.io/group-name} (or a label of that key); a bare pod gets the
 * one-pod group Volcano's pod-group controller makes ({@code podgroup-<pod uid>}).
 */
public final class Workloads {

    /** Volcano's KubeGroupNameAnnotationKey: the PodGroup a pod belongs to. */
    public static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    /** Volcano's QueueNameAnnotationKey on a pod: the queue of its one-pod group. */
    public static final String QUEUE_NAME = "scheduling.volcano.sh/queue-name";
    /** Volcano's PodgroupNamePrefix: the one-pod group of a bare pod is this and the pod's UID. */
    public static final String ONE_POD_GROUP_PREFIX = "podgroup-";
    /** Volcano's TaskSpecKey: a pod's task role within its group (annotation, then label). */
    public static final String TASK_SPEC = "volcano.sh/task-spec";
    /** The queue of a PodGroup that names none (the PodGroup CRD's default). */
    public static final String DEFAULT_QUEUE = "default";
    /** Volcano's VolcanoGroupMinMemberAnnotationKey on a bare pod's owner: its group's minMember. */
    public static final String GROUP_MIN_MEMBER = "scheduling.volcano.sh/group-min-member";
    /** Volcano's AnnotationPrefix: the owners' annotations of this prefix are its group's too. */
    public static final String VOLCANO_ANNOTATION_PREFIX = "volcano.sh/";
    /** Volcano's NetworkTopologyModeAnnotationKey and NetworkTopologyHighestTierAnnotationKey on a bare pod. */
    public static final String NETWORK_TOPOLOGY_MODE = "volcano.sh/network-topology-mode";

    public static final String NETWORK_TOPOLOGY_HIGHEST_TIER = "volcano.sh/network-topology-highest-tier";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Pod annotations Volcano's controller copies onto a bare pod's PodGroup, over its owners'. */
    private static final List<String> INHERITED_ANNOTATIONS =
            List.of(PodLabels.PREEMPTABLE, PodLabels.COOLDOWN_TIME, PodLabels.REVOCABLE_ZONE);
    /** Pod labels Volcano's controller copies onto a bare pod's PodGroup. */
    private static final List<String> INHERITED_LABELS = List.of(PodLabels.PREEMPTABLE, PodLabels.COOLDOWN_TIME);
    /** The disruption budget annotations: the pod's first, else its second, goes onto its PodGroup. */
    private static final List<String> DISRUPTION_BUDGET =
            List.of(PodLabels.JDB_MIN_AVAILABLE, PodLabels.JDB_MAX_UNAVAILABLE);
    /**
     * The owners whose annotations Volcano's pod-group controller reads for a bare pod's group
     * (getAnnotationsFromUpperRes), by apiVersion and kind.
     */
    public static final Set<String> ANNOTATED_OWNERS =
            Set.of("apps/v1/ReplicaSet", "apps/v1/DaemonSet", "apps/v1/StatefulSet", "batch/v1/Job");

    private Workloads() {}

    /** Made by the bridge for a Lahar Job (its pods, its mirrored PodGroups): not another workload. */
    public static boolean isLahars(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels != null && BridgeLabels.MANAGER.equals(labels.get(BridgeLabels.MANAGED_BY));
    }

    /** The PodGroup the pod names (annotation first, then label, as Volcano's scheduler reads it), or empty. */
    public static Optional<String> groupOf(Pod pod) {
        String name = value(pod.getMetadata().getAnnotations(), GROUP_NAME);
        if (name == null) {
            name = value(pod.getMetadata().getLabels(), GROUP_NAME);
        }
        return Optional.ofNullable(name);
    }

    /**
     * A bare pod whose scheduler is one of {@code schedulerNames}: Volcano's pod-group controller
     * gives it a PodGroup of its own.
     */
    public static boolean needsOwnGroup(Pod pod, Set<String> schedulerNames) {
        return groupOf(pod).isEmpty()
                && pod.getSpec() != null
                && schedulerNames.contains(pod.getSpec().getSchedulerName());
    }

    /**
     * The name of a bare pod's own PodGroup (Volcano's GeneratePodgroupName): {@code podgroup-} and
     * the UID of the pod's controller (the pods of one ReplicaSet share it), else the pod's.
     */
    public static String onePodGroupName(Pod pod) {
        List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
        String uid = refs == null
                ? null
                : refs.stream()
                        .filter(o -> Boolean.TRUE.equals(o.getController()))
                        .map(OwnerReference::getUid)
                        .findFirst()
                        .orElse(null);
        return ONE_POD_GROUP_PREFIX + (uid == null ? pod.getMetadata().getUid() : uid);
    }

    /**
     * The PodGroup Volcano's pod-group controller makes for a bare pod (buildPodGroupFromPod, with
     * its default --inherit-owner-annotations): minMember the owners' {@code
     * scheduling.volcano.sh/group-min-member} (1 without one, or when it is not a non-negative
     * integer: see {@link #minMemberProblem}), minResources the pod's requests times minMember, the
     * queue of the pod's {@code scheduling.volcano.sh/queue-name} annotation (the default queue
     * without one, which the PodGroup mutating webhook turns into the namespace's queue when the
     * namespace is annotated so, as it does Volcano's), its priorityClassName, networkTopology from its {@code
     * volcano.sh/network-topology-*} annotations, the owners' {@code volcano.sh/} annotations under
     * the pod's own preemptable, cooldown, revocable-zone and disruption budget ones, owned by the
     * pod's controller or else the pod, phase Pending.
     *
     * @param ownerAnnotations the annotations of the pod's owners of {@link #ANNOTATED_OWNERS} kinds,
     *                         the first owner's value of a key kept
     */
    public static GenericKubernetesResource onePodGroup(Pod pod, Map<String, String> ownerAnnotations) {
        Map<String, String> podAnnotations = pod.getMetadata().getAnnotations();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(onePodGroupName(pod));
        meta.setNamespace(pod.getMetadata().getNamespace());
        meta.setOwnerReferences(owners(pod));
        Map<String, String> annotations = new TreeMap<>();
        ownerAnnotations.forEach((k, v) -> {
            if (k.startsWith(VOLCANO_ANNOTATION_PREFIX)) annotations.put(k, v);
        });
        for (String key : INHERITED_ANNOTATIONS) {
            String v = value(podAnnotations, key);
            if (v != null) annotations.put(key, v);
        }
        DISRUPTION_BUDGET.stream()
                .filter(k -> value(podAnnotations, k) != null)
                .findFirst()
                .ifPresent(k -> annotations.put(k, value(podAnnotations, k)));
        meta.setAnnotations(annotations);
        Map<String, String> labels = new TreeMap<>();
        for (String key : INHERITED_LABELS) {
            String v = value(pod.getMetadata().getLabels(), key);
            if (v != null) labels.put(key, v);
        }
        meta.setLabels(labels);
        int minMember = minMember(ownerAnnotations);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("minMember", minMember);
        String queue = value(podAnnotations, QUEUE_NAME);
        spec.put("queue", queue == null ? DEFAULT_QUEUE : queue);
        if (pod.getSpec().getPriorityClassName() != null) {
            spec.put("priorityClassName", pod.getSpec().getPriorityClassName());
        }
        Map<String, String> minResources =
                new TreeMap<>(podRequest(pod).multiply(minMember).toQuantities());
        if (!minResources.isEmpty()) spec.put("minResources", minResources);
        networkTopology(podAnnotations).ifPresent(t -> spec.put("networkTopology", t));
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(VolcanoKinds.SCHEDULING_API_VERSION);
        cr.setKind("PodGroup");
        cr.setMetadata(meta);
        cr.setAdditionalProperty("spec", spec);
        cr.setAdditionalProperty("status", Map.of("phase", "Pending"));
        return cr;
    }

    /**
     * Why the owners' {@code scheduling.volcano.sh/group-min-member} was not taken (it is not a
     * non-negative integer; the group's minMember is 1, as in Volcano), or empty when it was or
     * there is none.
     */
    public static Optional<String> minMemberProblem(Map<String, String> ownerAnnotations) {
        String value = ownerAnnotations.get(GROUP_MIN_MEMBER);
        if (value == null || minMemberOf(value) >= 0) return Optional.empty();
        return Optional.of("annotation " + GROUP_MIN_MEMBER + " \"" + value + "\" of the pod's owner is not a"
                + " non-negative integer: minMember 1, as Volcano's pod-group controller has it");
    }

    private static int minMember(Map<String, String> ownerAnnotations) {
        String value = ownerAnnotations.get(GROUP_MIN_MEMBER);
        int parsed = value == null ? 1 : minMemberOf(value);
        return parsed < 0 ? 1 : parsed;
    }

    /** The annotation's value as Volcano parses it (an int32), or -1 when it is not a non-negative one. */
    private static int minMemberOf(String value) {
        try {
            return Math.max(-1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The networkTopology Volcano's controller gives a bare pod's group from its annotations
     * (parseNetworkTopologyFromPod): mode hard unless the pod says soft, and the highest tier when it
     * is an integer.
     */
    private static Optional<Map<String, Object>> networkTopology(Map<String, String> podAnnotations) {
        String mode = podAnnotations == null ? null : podAnnotations.get(NETWORK_TOPOLOGY_MODE);
        String tier = podAnnotations == null ? null : podAnnotations.get(NETWORK_TOPOLOGY_HIGHEST_TIER);
        if (mode == null && tier == null) return Optional.empty();
        Map<String, Object> topology = new LinkedHashMap<>();
        topology.put("mode", mode != null && mode.equalsIgnoreCase("soft") ? "soft" : "hard");
        if (tier != null) {
            try {
                topology.put("highestTierAllowed", Integer.parseInt(tier));
            } catch (NumberFormatException e) {
                // Volcano leaves the tier out of a group whose pod's tier is not a number.
            }
        }
        return Optional.of(topology);
    }

    /**
     * Whether a PodGroup is the one Volcano's controller made for this bare pod alone: named after it
     * and controlled by it (a controller's group is the controller's, and goes with it).
     */
    public static boolean isOwnGroupOf(GenericKubernetesResource group, Pod pod) {
        return group.getMetadata().getName().equals(onePodGroupName(pod))
                && group.getMetadata().getOwnerReferences() != null
                && group.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> Boolean.TRUE.equals(o.getController())
                                && Objects.equals(o.getUid(), pod.getMetadata().getUid()));
    }

    private static List<OwnerReference> owners(Pod pod) {
        List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
        if (refs != null && refs.stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()))) {
            return refs;
        }
        return List.of(new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build());
    }

    /**
     * The record of a PodGroup CR no Lahar Job owns, keyed {@link WorkloadKeys#groupKey}: its spec
     * read as core's PodGroup and admitted as {@link PodGroupAdmission#otherWorkload} admits it (an
     * empty queue is the default queue; whether the queue exists is the scheduler's verdict), its
     * priority the value of its priorityClassName among {@code classes} as Volcano's scheduler
     * resolves it (a class that does not exist: the global default's, else 0), its phase as the CR
     * says.
     *
     * @throws IllegalArgumentException saying every violation with its path, when the CR is not a
     *     PodGroup or asks for what Lahar's scheduler would not carry out
     */
    public static PodGroup podGroup(GenericKubernetesResource cr, PriorityClasses classes, Instant now) {
        io.lahar.core.api.PodGroup.PodGroupSpec spec = admittedSpec(cr);
        Map<String, Object> status = map(cr.getAdditionalProperties().get("status"), "status");
        String phase = text(status.get("phase"));
        String created = cr.getMetadata().getCreationTimestamp();
        return PodGroup.newBuilder()
                .setNamespace(cr.getMetadata().getNamespace())
                .setName(cr.getMetadata().getName())
                .setJob(WorkloadKeys.groupJob(cr.getMetadata().getName()))
                .setJobUid(cr.getMetadata().getUid())
                .setJobVersion(0)
                .setCreationTimestamp(created == null ? now : Instant.parse(created))
                .setSpec(PodGroupCodec.spec(spec, classes.valueOf(spec.priorityClassName())))
                .setAnnotations(
                        cr.getMetadata().getAnnotations() == null
                                ? new java.util.TreeMap<>()
                                : new java.util.TreeMap<>(cr.getMetadata().getAnnotations()))
                .setLabels(
                        cr.getMetadata().getLabels() == null
                                ? new java.util.TreeMap<>()
                                : new java.util.TreeMap<>(cr.getMetadata().getLabels()))
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase(phase == null || phase.isEmpty() ? "Pending" : phase)
                        .setConditions(List.of())
                        .setRunning(integerOr(status.get("running"), 0))
                        .setSucceeded(integerOr(status.get("succeeded"), 0))
                        .setFailed(integerOr(status.get("failed"), 0))
                        .build())
                .setTime(now)
                .setOrigin(WorkloadKeys.ORIGIN_POD_GROUP)
                .build();
    }

    private static io.lahar.core.api.PodGroup.PodGroupSpec admittedSpec(GenericKubernetesResource cr) {
        Manifests.Reading reading;
        try {
            reading = Manifests.readWithWarnings(
                    VolcanoCrs.manifest(cr, VolcanoKinds.SCHEDULING_API_VERSION, io.lahar.core.api.PodGroup.KIND));
        } catch (ManifestException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        AdmissionResult<io.lahar.core.api.PodGroup> admitted = PodGroupAdmission.otherWorkload(
                (io.lahar.core.api.PodGroup) reading.manifest(), reading.unknownFields(), AdmissionLimits.DEFAULTS);
        if (!admitted.accepted()) {
            throw new IllegalArgumentException(
                    admitted.violations().stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        return admitted.object().spec();
    }

    /** Whether two records of a group say the same of what the scheduler reads (its status is the scheduler's own). */
    public static boolean sameGroup(PodGroup a, PodGroup b) {
        return a != null
                && b != null
                && a.getSpec().equals(b.getSpec())
                && a.getAnnotations().equals(b.getAnnotations())
                && Objects.equals(a.getJobUid(), b.getJobUid())
                && a.getCreationTimestamp().equals(b.getCreationTimestamp());
    }

    /** The record of a pod of another workload in the group {@code group}. */
    public static WorkloadPod pod(Pod pod, String group, Instant now) {
        ObjectMeta m = pod.getMetadata();
        var spec = pod.getSpec();
        Map<String, String> annotations = m.getAnnotations() == null ? Map.of() : m.getAnnotations();
        Map<String, String> labels = m.getLabels() == null ? Map.of() : m.getLabels();
        String task = value(annotations, TASK_SPEC);
        if (task == null) task = value(labels, TASK_SPEC);
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("metadata", Map.of("name", m.getName(), "namespace", m.getNamespace(), "labels", labels));
        template.put("spec", spec);
        List<Toleration> tolerations = new ArrayList<>();
        if (spec.getTolerations() != null) {
            spec.getTolerations()
                    .forEach(t -> tolerations.add(Toleration.newBuilder()
                            .setKey(t.getKey())
                            .setOperator(t.getOperator())
                            .setValue(t.getValue())
                            .setEffect(t.getEffect())
                            .setTolerationSeconds(t.getTolerationSeconds())
                            .build()));
        }
        CreatePod create = CreatePod.newBuilder()
                .setPod(m.getName())
                .setTask(task == null ? "" : task)
                .setIndex(0)
                .setJobVersion(0)
                .setPodGroup(group)
                .setLabels(new TreeMap<>(labels))
                .setAnnotations(new TreeMap<>(annotations))
                .setSchedulerName(spec.getSchedulerName() == null ? "" : spec.getSchedulerName())
                .setTemplate(KubernetesJson.SERIALIZATION.asJson(template))
                .setRequests(requests(pod))
                .setPriorityClassName(spec.getPriorityClassName())
                .setPriority(spec.getPriority())
                .setNodeSelector(spec.getNodeSelector() == null ? Map.of() : new TreeMap<>(spec.getNodeSelector()))
                .setAffinity(
                        spec.getAffinity() == null ? null : KubernetesJson.SERIALIZATION.asJson(spec.getAffinity()))
                .setTolerations(tolerations)
                .build();
        String node = spec.getNodeName();
        return WorkloadPod.newBuilder()
                .setNamespace(m.getNamespace())
                .setName(m.getName())
                .setUid(m.getUid())
                .setSpec(create)
                .setPhase(
                        pod.getStatus() == null || pod.getStatus().getPhase() == null
                                ? "Pending"
                                : pod.getStatus().getPhase())
                .setNode(node == null || node.isEmpty() ? null : node)
                .setDeleting(m.getDeletionTimestamp() != null)
                .setTime(now)
                .setScheduledTime(Pods.scheduledTime(pod))
                .build();
    }

    /** Whether two records of a pod say the same (all but the time they were observed). */
    public static boolean samePod(WorkloadPod a, WorkloadPod b) {
        return a != null
                && b != null
                && a.getSpec().equals(b.getSpec())
                && Objects.equals(a.getUid(), b.getUid())
                && a.getPhase().equals(b.getPhase())
                && Objects.equals(a.getNode(), b.getNode())
                && a.getDeleting() == b.getDeleting()
                && Objects.equals(a.getScheduledTime(), b.getScheduledTime());
    }

    /**
     * The pod's request as Volcano counts it: the sum of its containers' requests, or an init
     * container's when larger (a container without requests requests its limits, as Kubernetes
     * defaults it).
     */
    public static Map<String, String> requests(Pod pod) {
        return new TreeMap<>(podRequest(pod).toQuantities());
    }

    private static Resource podRequest(Pod pod) {
        Resource sum = Resource.EMPTY;
        for (Container c : list(pod.getSpec().getContainers())) {
            sum = sum.add(Resource.parse(quantities(c.getResources())));
        }
        for (Container c : list(pod.getSpec().getInitContainers())) {
            sum = sum.max(Resource.parse(quantities(c.getResources())));
        }
        return sum;
    }

    private static Map<String, String> quantities(ResourceRequirements r) {
        Map<String, Quantity> q = r == null ? null : r.getRequests();
        if ((q == null || q.isEmpty()) && r != null) q = r.getLimits();
        Map<String, String> out = new TreeMap<>();
        if (q != null) q.forEach((k, v) -> out.put(k, v.toString()));
        return out;
    }

    /**
     * The CR's {@code status} for a decided status: Volcano's PodGroupStatus (phase, conditions,
     * running, succeeded, failed).
     */
    public static Map<String, Object> status(PodGroupStatus status) {
        return JSON.convertValue(VolcanoCrs.podGroupStatus(status), Map.class);
    }

    /**
     * The Event a new status of the group is worth, if any: {@code Warning Unschedulable} with the
     * scheduler's reason when the group is held back for a new reason (a queue that does not exist,
     * resources it does not fit in), else {@code Normal <phase>} when its phase changed.
     */
    public static Optional<Event> event(
            GenericKubernetesResource cr, Map<String, Object> before, PodGroupStatus now, Instant at) {
        String ns = cr.getMetadata().getNamespace();
        String name = cr.getMetadata().getName();
        String uid = cr.getMetadata().getUid();
        PodGroupCondition unschedulable = now.getConditions().stream()
                .filter(c -> "Unschedulable".equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst()
                .orElse(null);
        if (unschedulable != null) {
            String message = text(unschedulable.getMessage());
            String reason = text(unschedulable.getReason());
            String said = (reason == null ? "" : reason) + (message == null || message.isEmpty() ? "" : ": " + message);
            if (!said.equals(unschedulableSaid(before))) {
                return Optional.of(CommandEvents.event(
                        ns,
                        name,
                        uid + "/Unschedulable/" + said,
                        VolcanoKinds.SCHEDULING_API_VERSION,
                        "PodGroup",
                        uid,
                        "Warning",
                        "Unschedulable",
                        "PodGroup " + ns + "/" + name + " is " + now.getPhase() + ", unschedulable: " + said,
                        at));
            }
            return Optional.empty();
        }
        // A group without a phase yet is Pending, as Volcano's controller creates it: a first status of
        // Running (the gang placed in the session that first saw it) is the change from Pending.
        String said = before == null ? null : text(before.get("phase"));
        String was = said == null || said.isEmpty() ? "Pending" : said;
        if (was.equals(now.getPhase())) return Optional.empty();
        return Optional.of(CommandEvents.event(
                ns,
                name,
                uid + "/" + was + "/" + now.getPhase() + "/" + at.toEpochMilli(),
                VolcanoKinds.SCHEDULING_API_VERSION,
                "PodGroup",
                uid,
                "Normal",
                now.getPhase(),
                "PodGroup " + ns + "/" + name + ": " + was + " → " + now.getPhase() + " (running " + now.getRunning()
                        + ", succeeded " + now.getSucceeded() + ", failed " + now.getFailed() + ")",
                at));
    }

    /** The Warning on a PodGroup CR that cannot be read as a PodGroup: it is not scheduled, and says why. */
    public static Event refusal(GenericKubernetesResource cr, String reason, Instant at) {
        String ns = cr.getMetadata().getNamespace();
        String name = cr.getMetadata().getName();
        String uid = cr.getMetadata().getUid();
        return CommandEvents.event(
                ns,
                name,
                uid + "/Invalid/" + reason,
                VolcanoKinds.SCHEDULING_API_VERSION,
                "PodGroup",
                uid,
                "Warning",
                "Invalid",
                "PodGroup " + ns + "/" + name + " is not scheduled: " + reason,
                at);
    }

    /** The Warning on a bare pod's PodGroup whose owners' annotation was not taken, saying why. */
    public static Event ownerAnnotationWarning(GenericKubernetesResource group, String problem, Instant at) {
        String uid = group.getMetadata().getUid();
        return CommandEvents.event(
                group.getMetadata().getNamespace(),
                group.getMetadata().getName(),
                uid + "/InvalidAnnotation/" + problem,
                VolcanoKinds.SCHEDULING_API_VERSION,
                "PodGroup",
                uid,
                "Warning",
                "InvalidAnnotation",
                problem,
                at);
    }

    /**
     * The CR's {@code status} while it cannot be read as a PodGroup: Pending, with an
     * {@code Unschedulable} condition whose reason is {@code Invalid} and whose message says why.
     */
    public static Map<String, Object> refusalStatus(String reason, Instant at) {
        return status(PodGroupStatus.newBuilder()
                .setPhase("Pending")
                .setConditions(List.of(PodGroupCondition.newBuilder()
                        .setType("Unschedulable")
                        .setStatus("True")
                        .setLastTransitionTime(at)
                        .setReason("Invalid")
                        .setMessage(reason)
                        .build()))
                .build());
    }

    /** What an earlier status's Unschedulable condition said, in the form {@link #event} compares. */
    private static String unschedulableSaid(Map<String, Object> status) {
        if (status == null || !(status.get("conditions") instanceof List<?> conditions)) return null;
        for (Object o : conditions) {
            if (o instanceof Map<?, ?> c && "Unschedulable".equals(c.get("type")) && "True".equals(c.get("status"))) {
                String reason = text(c.get("reason"));
                String message = text(c.get("message"));
                return (reason == null ? "" : reason) + (message == null || message.isEmpty() ? "" : ": " + message);
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String path) {
        if (value == null) return Map.of();
        if (value instanceof Map<?, ?> m) return (Map<String, Object>) m;
        throw new IllegalArgumentException(path + ": expected an object, got " + value);
    }

    private static int integerOr(Object value, int otherwise) {
        return value instanceof Number n ? n.intValue() : otherwise;
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private static String value(Map<String, String> map, String key) {
        String v = map == null ? null : map.get(key);
        return v == null || v.isEmpty() ? null : v;
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }
}
