package io.lahar.scheduler.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.PodSpecReader;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.core.scheduling.plugins.Cdp;
import io.lahar.schema.CreatePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code CreatePod} intent (one task of the gang) to the scheduler's {@link TaskInfo}: the pod's
 * requests, priority, nodeSelector, node affinity, tolerations, labels, inter-pod affinity, topology
 * spread constraints, host ports and images.
 */
public final class PodMapping {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PodMapping() {}

    /**
     * The task's scheduling requirements; status and node are set by the cache. Node affinity and
     * pod (anti-)affinity come from the intent's {@code affinity}; topology spread constraints,
     * host ports and images from its {@code template}; labels from its {@code labels} (the
     * template's and Volcano's), all read and checked by {@link PodSpecReader}.
     *
     * @param groupPriority the pod group's priority, used when the pod names none
     * @throws MappingException naming every bad field
     */
    public static TaskInfo toTaskInfo(CreatePod pod, int groupPriority, TaskStatus status, String node) {
        List<Problem> problems = new ArrayList<>();
        Resource requests = Quantities.parse(pod.getRequests(), "intent.requests", problems);
        Map<String, String> labels = Strings.map(pod.getLabels());
        ObjectNode affinitySpec = JSON.createObjectNode();
        JsonNode affinity = json(Strings.of(pod.getAffinity()), "intent.affinity", problems);
        if (affinity != null) affinitySpec.set("affinity", affinity);
        PodSpecReader.Read fromAffinity = PodSpecReader.read(affinitySpec, labels, "intent", problems);
        JsonNode template = json(Strings.of(pod.getTemplate()), "intent.template", problems);
        JsonNode spec = template == null ? null : template.path("spec");
        ObjectNode rest = spec instanceof ObjectNode o ? o.deepCopy() : JSON.createObjectNode();
        rest.remove("affinity"); // the intent's affinity field is the one read
        PodSpecReader.Read fromTemplate = PodSpecReader.read(rest, labels, "intent.template.spec", problems);
        List<Toleration> tolerations = new ArrayList<>();
        for (int i = 0; i < pod.getTolerations().size(); i++) {
            Toleration t = toleration(pod.getTolerations().get(i), "intent.tolerations[" + i + "]", problems);
            if (t != null) tolerations.add(t);
        }
        MappingException.throwIfAny(problems);
        PodSpec a = fromAffinity.spec();
        PodSpec t = fromTemplate.spec();
        PodSpec merged = new PodSpec(
                labels,
                a.preferredNodeAffinity(),
                a.requiredAffinity(),
                a.requiredAntiAffinity(),
                a.preferredAffinity(),
                a.preferredAntiAffinity(),
                t.topologySpread(),
                t.hostPorts(),
                t.images());
        Map<String, String> annotations = Strings.map(pod.getAnnotations());
        boolean preemptable = TaskInfo.preemptableOf(labels, annotations);
        int priority = pod.getPriority() == null ? groupPriority : pod.getPriority();
        return new TaskInfo(
                pod.getPod().toString(),
                pod.getTask().toString(),
                requests,
                Strings.map(pod.getNodeSelector()),
                fromAffinity.requiredNodeAffinity(),
                tolerations,
                priority,
                preemptable,
                status,
                node,
                merged,
                Cdp.cooldownTimeOf(labels, annotations).orElse(null),
                null,
                TaskInfo.revocableZoneOf(annotations),
                fromTemplate.preemptionPolicy());
    }

    /** Checks an intent when it arrives, so a bad one is dead-lettered rather than kept. */
    public static void check(CreatePod pod) {
        toTaskInfo(pod, 0, TaskStatus.Pending, null);
    }

    private static JsonNode json(String text, String path, List<Problem> problems) {
        if (text == null || text.isBlank()) return null;
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            problems.add(new Problem(path, "not JSON: " + e.getOriginalMessage()));
            return null;
        }
    }

    static Toleration toleration(io.lahar.schema.Toleration t, String path, List<Problem> problems) {
        Toleration.Operator op;
        String operator = Strings.of(t.getOperator());
        if (operator == null || operator.isEmpty() || operator.equals("Equal")) op = Toleration.Operator.Equal;
        else if (operator.equals("Exists")) op = Toleration.Operator.Exists;
        else {
            problems.add(new Problem(path + ".operator", "unknown operator \"" + operator + "\" (Equal or Exists)"));
            return null;
        }
        String effectText = Strings.of(t.getEffect());
        TaintEffect effect = null;
        if (effectText != null && !effectText.isEmpty()) {
            effect = NodeMapping.effect(effectText);
            if (effect == null) {
                problems.add(new Problem(path + ".effect", "unknown effect \"" + effectText + "\""));
                return null;
            }
        }
        return new Toleration(Strings.of(t.getKey()), op, Strings.of(t.getValue()), effect);
    }
}
