package io.lahar.bridge.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.UpdateJob;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Volcano's own API (what {@code kubectl apply} and {@code vcctl} write) to Lahar's records, and
 * Lahar's records back onto Volcano's CRs: Job CR → job commands, Command CR → job action, Queue
 * CR → queue record; pod group record → PodGroup CR; job status → the Job CR's status.
 */
public final class VolcanoCrs {

    public static final String SENDER = "k8s-bridge";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private VolcanoCrs() {}

    // ---- batch.volcano.sh Job → job commands -------------------------------------------------

    /**
     * A Job CR seen for the first time is a submit. The request id is derived from the CR's UID, so
     * an informer's re-list re-sends the same command and the engine answers it as a duplicate.
     */
    public static JobCommand submit(GenericKubernetesResource job, Instant time) {
        return command(job, "k8s:" + job.getMetadata().getUid() + ":submit", time, new SubmitJob(manifest(job)));
    }

    /** A change of the CR's spec (a new generation) is an update; status writes do not change the generation. */
    public static JobCommand update(GenericKubernetesResource job, Instant time) {
        // An apiserver bumps the generation on every spec change; an emulator might not, and then
        // the resource version (which changes on every write) keeps two updates apart.
        return command(
                job, "k8s:" + job.getMetadata().getUid() + ":" + specVersion(job), time, new UpdateJob(manifest(job)));
    }

    public static JobCommand delete(GenericKubernetesResource job, Instant time) {
        return command(
                job,
                "k8s:" + job.getMetadata().getUid() + ":delete",
                time,
                new DeleteJob("Job " + job.getMetadata().getNamespace() + "/"
                        + job.getMetadata().getName() + " deleted in Kubernetes"));
    }

    /** The Volcano Job manifest as JSON: identity, labels, annotations and the spec, pod templates intact; no status. */
    public static String manifest(GenericKubernetesResource job) {
        return manifest(job, VolcanoKinds.BATCH_API_VERSION, "Job");
    }

    /** A CR as the manifest Lahar's commands carry: identity, labels, annotations and the spec; no status. */
    public static String manifest(GenericKubernetesResource job, String apiVersion, String kind) {
        ObjectMeta meta = job.getMetadata();
        ObjectNode out = NODES.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        ObjectNode metadata = out.putObject("metadata");
        metadata.put("name", meta.getName());
        metadata.put("namespace", namespace(meta));
        if (meta.getUid() != null) {
            metadata.put("uid", meta.getUid());
        }
        if (meta.getLabels() != null && !meta.getLabels().isEmpty()) {
            metadata.set("labels", MAPPER.valueToTree(meta.getLabels()));
        }
        if (meta.getAnnotations() != null) {
            Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations());
            // kubectl's copy of the whole object would double the manifest for nothing.
            annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
            // The marks of a mirror are the bridge's, not the object's (see Mirrors).
            annotations.remove(Mirrors.MIRROR_OF);
            annotations.remove(Mirrors.SPEC_HASH);
            if (!annotations.isEmpty()) {
                metadata.set("annotations", MAPPER.valueToTree(annotations));
            }
        }
        Object spec = job.getAdditionalProperties().get("spec");
        out.set("spec", spec == null ? NODES.objectNode() : MAPPER.valueToTree(spec));
        return out.toString();
    }

    private static JobCommand command(GenericKubernetesResource cr, String requestId, Instant time, Object command) {
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender(SENDER)
                .setNamespace(namespace(cr.getMetadata()))
                .setName(cr.getMetadata().getName())
                .setTime(time)
                .setCommand(command)
                .build();
    }

    // ---- bus.volcano.sh Command → job action -------------------------------------------------

    /**
     * What {@code vcctl job suspend|resume|...} creates: {@code action} and {@code target} (an owner
     * reference to the Job) become the matching job action command. The request id is the
     * Command's UID: one CR, one command, however often it is seen.
     *
     * @throws IllegalArgumentException naming every bad field by its path
     */
    public static JobCommand action(GenericKubernetesResource command, Instant time) {
        Map<String, Object> props = command.getAdditionalProperties();
        List<String> errors = new ArrayList<>();
        Object rawAction = props.get("action");
        JobAction action = null;
        if (!(rawAction instanceof String name) || name.isBlank()) {
            errors.add("action: missing");
        } else {
            action = Arrays.stream(JobAction.values())
                    .filter(a -> a != JobAction.Unknown && a.name().equals(name))
                    .findFirst()
                    .orElse(null);
            if (action == null) {
                errors.add("action: \"" + name + "\" is not a Volcano job action");
            }
        }
        String target = null;
        if (!(props.get("target") instanceof Map<?, ?> ref)) {
            errors.add("target: missing");
        } else {
            Object kind = ref.get("kind");
            if (kind != null && !"Job".equals(kind)) {
                errors.add("target.kind: \"" + kind + "\" is not Job");
            }
            if (ref.get("name") instanceof String name && !name.isBlank()) {
                target = name;
            } else {
                errors.add("target.name: missing");
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("Command " + namespace(command.getMetadata()) + "/"
                    + command.getMetadata().getName() + ": " + String.join("; ", errors));
        }
        String message = props.get("message") instanceof String m
                ? m
                : props.get("reason") instanceof String r
                        ? r
                        : "Command " + command.getMetadata().getName();
        return JobCommand.newBuilder()
                .setRequestId("k8s:command:" + command.getMetadata().getUid())
                .setSender(SENDER)
                .setNamespace(namespace(command.getMetadata()))
                .setName(target)
                .setTime(time)
                .setCommand(JobActionCommand.newBuilder()
                        .setAction(action)
                        .setMessage(message)
                        .build())
                .build();
    }

    // ---- scheduling.volcano.sh Queue → queue record ------------------------------------------

    /** A Queue CR as the queues topic's record, with Volcano's defaults (weight 1, reclaimable, Open). */
    public static Queue queue(GenericKubernetesResource queue, Instant time) {
        JsonNode spec = tree(queue.getAdditionalProperties().get("spec"));
        JsonNode status = tree(queue.getAdditionalProperties().get("status"));
        String state = status.path("state").asText("Open");
        QueueState queueState = Arrays.stream(QueueState.values())
                .filter(s -> s.name().equals(state))
                .findFirst()
                .orElse(QueueState.Unknown);
        return Queue.newBuilder()
                .setName(queue.getMetadata().getName())
                .setWeight(spec.path("weight").asInt(1))
                .setCapability(strings(spec.path("capability")))
                .setDeserved(strings(spec.path("deserved")))
                .setGuarantee(strings(spec.path("guarantee").path("resource")))
                .setReclaimable(spec.path("reclaimable").asBoolean(true))
                .setParent(spec.hasNonNull("parent") ? spec.get("parent").asText() : null)
                .setState(queueState)
                .setPriority(spec.path("priority").asInt(0))
                .setTime(time)
                .build();
    }

    /**
     * The scheduler's view of a queue as Volcano's QueueStatus: state, the pod-group counts by
     * phase, and what is allocated ({@code deserved} is the spec's business in Volcano, so it stays
     * off the status).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> queueStatus(QueueStatus status) {
        ObjectNode out = NODES.objectNode();
        out.put("state", status.getState().name());
        out.put("unknown", status.getUnknown());
        out.put("pending", status.getPending());
        out.put("running", status.getRunning());
        out.put("inqueue", status.getInqueue());
        out.put("completed", status.getCompleted());
        if (!status.getAllocated().isEmpty()) {
            out.set("allocated", MAPPER.valueToTree(status.getAllocated()));
        }
        return MAPPER.convertValue(out, Map.class);
    }

    // ---- pod group record → scheduling.volcano.sh PodGroup CR --------------------------------

    public static GenericKubernetesResource podGroup(PodGroup group, Optional<OwnerReference> owner) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(VolcanoKinds.SCHEDULING_API_VERSION);
        cr.setKind("PodGroup");
        ObjectMeta meta = new ObjectMeta();
        meta.setName(group.getName());
        meta.setNamespace(group.getNamespace());
        meta.setLabels(Map.of(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER));
        meta.setOwnerReferences(owner.stream().toList());
        cr.setMetadata(meta);
        ObjectNode spec = NODES.objectNode();
        var s = group.getSpec();
        spec.put("minMember", s.getMinMember());
        if (!s.getMinTaskMember().isEmpty()) {
            spec.set("minTaskMember", MAPPER.valueToTree(s.getMinTaskMember()));
        }
        spec.put("queue", s.getQueue());
        if (s.getPriorityClassName() != null) {
            spec.put("priorityClassName", s.getPriorityClassName());
        }
        if (!s.getMinResources().isEmpty()) {
            spec.set("minResources", MAPPER.valueToTree(s.getMinResources()));
        }
        if (s.getNetworkTopology() != null) {
            spec.set("networkTopology", parse(s.getNetworkTopology(), "spec.networkTopology"));
        }
        if (!s.getSubGroupPolicy().isEmpty()) {
            // Volcano's SubGroupPolicySpec: the pods its labelSelector picks, by matchLabelKeys.
            ArrayNode policies = spec.putArray("subGroupPolicy");
            s.getSubGroupPolicy().forEach(p -> {
                ObjectNode policy = policies.addObject();
                policy.put("name", p.getName().toString());
                policy.put("subGroupSize", p.getSubGroupSize());
                policy.put("minSubGroups", p.getMinSubGroups());
                ObjectNode labels = policy.putObject("labelSelector").putObject("matchLabels");
                p.getMatchLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
                ArrayNode keys = policy.putArray("matchLabelKeys");
                p.getMatchLabelKeys().forEach(k -> keys.add(k.toString()));
            });
        }
        cr.setAdditionalProperty("spec", MAPPER.convertValue(spec, Map.class));
        cr.setAdditionalProperty("status", MAPPER.convertValue(podGroupStatus(group.getStatus()), Map.class));
        return cr;
    }

    static ObjectNode podGroupStatus(PodGroupStatus status) {
        ObjectNode out = NODES.objectNode();
        out.put("phase", status.getPhase());
        ArrayNode conditions = out.putArray("conditions");
        status.getConditions().forEach(c -> {
            ObjectNode cond = conditions.addObject();
            cond.put("type", c.getType());
            cond.put("status", c.getStatus());
            if (c.getTransitionID() != null) {
                cond.put("transitionID", c.getTransitionID());
            }
            cond.put("lastTransitionTime", rfc3339(c.getLastTransitionTime()));
            if (c.getReason() != null) {
                cond.put("reason", c.getReason());
            }
            if (c.getMessage() != null) {
                cond.put("message", c.getMessage());
            }
        });
        out.put("running", status.getRunning());
        out.put("succeeded", status.getSucceeded());
        out.put("failed", status.getFailed());
        return out;
    }

    // ---- job status record → the Job CR's status ---------------------------------------------

    /** Volcano's JobStatus JSON, field for field, for the CR's status subresource. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> jobStatus(JobStatusRecord record) {
        JobStatus s = record.getStatus();
        ObjectNode out = NODES.objectNode();
        ObjectNode state = out.putObject("state");
        state.put("phase", s.getState().getPhase());
        if (s.getState().getReason() != null) {
            state.put("reason", s.getState().getReason());
        }
        if (s.getState().getMessage() != null) {
            state.put("message", s.getState().getMessage());
        }
        if (s.getState().getLastTransitionTime() != null) {
            state.put("lastTransitionTime", rfc3339(s.getState().getLastTransitionTime()));
        }
        out.put("minAvailable", s.getMinAvailable());
        if (!s.getTaskStatusCount().isEmpty()) {
            ObjectNode tasks = out.putObject("taskStatusCount");
            s.getTaskStatusCount()
                    .forEach((task, ts) -> tasks.putObject(task).set("phase", MAPPER.valueToTree(ts.getPhase())));
        }
        out.put("pending", s.getPending());
        out.put("running", s.getRunning());
        out.put("succeeded", s.getSucceeded());
        out.put("failed", s.getFailed());
        out.put("terminating", s.getTerminating());
        out.put("unknown", s.getUnknown());
        out.put("version", s.getVersion());
        out.put("retryCount", s.getRetryCount());
        if (s.getRunningDuration() != null) {
            out.put("runningDuration", goDuration(Duration.ofMillis(s.getRunningDuration())));
        }
        if (!s.getControlledResources().isEmpty()) {
            out.set("controlledResources", MAPPER.valueToTree(s.getControlledResources()));
        }
        ArrayNode conditions = out.putArray("conditions");
        s.getConditions()
                .forEach(c -> conditions
                        .addObject()
                        .put("status", c.getStatus())
                        .put("lastTransitionTime", rfc3339(c.getLastTransitionTime())));
        return MAPPER.convertValue(out, Map.class);
    }

    /** Go's time.Duration.String(), as metav1.Duration serializes: "1h2m3.5s", "0s". */
    static String goDuration(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        if (d.toHours() > 0) {
            out.append(d.toHours()).append('h');
        }
        if (d.toHours() > 0 || d.toMinutesPart() > 0) {
            out.append(d.toMinutesPart()).append('m');
        }
        out.append(d.toSecondsPart());
        int millis = d.toMillisPart();
        if (millis > 0) {
            out.append('.').append(String.format("%03d", millis).replaceAll("0+$", ""));
        }
        return out.append('s').toString();
    }

    /** The request-id suffix of a spec change: the generation, or the resource version where an emulator keeps none. */
    static String specVersion(GenericKubernetesResource cr) {
        Long generation = cr.getMetadata().getGeneration();
        return generation != null
                ? "generation-" + generation
                : "rv-" + cr.getMetadata().getResourceVersion();
    }

    static String rfc3339(Instant time) {
        return time.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String namespace(ObjectMeta meta) {
        return meta.getNamespace() == null ? "default" : meta.getNamespace();
    }

    private static JsonNode tree(Object value) {
        return value == null ? NODES.objectNode() : MAPPER.valueToTree(value);
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        node.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static JsonNode parse(String json, String path) {
        try {
            return MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(path + ": not JSON: " + e.getMessage(), e);
        }
    }
}
