package io.lahar.scheduler.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.NodeSelectorRequirement;
import io.lahar.core.scheduling.api.NodeSelectorTerm;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.TaintEffect;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.Toleration;
import io.lahar.schema.CreatePod;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code CreatePod} intent (one task of the gang) to the scheduler's {@link TaskInfo}: the pod's
 * requests, priority, nodeSelector, required node affinity and tolerations.
 */
public final class PodMapping {
    /** Volcano's annotation that keeps a pod from being preempted or reclaimed when "false". */
    public static final String PREEMPTABLE_ANNOTATION = "volcano.sh/preemptable";

    private static final ObjectMapper JSON = new ObjectMapper();

    private PodMapping() {
    }

    /**
     * The task's scheduling requirements; status and node are set by the cache.
     *
     * @param groupPriority the pod group's priority, used when the pod names none
     * @throws MappingException naming every bad field
     */
    public static TaskInfo toTaskInfo(CreatePod pod, int groupPriority, TaskStatus status, String node) {
        List<Problem> problems = new ArrayList<>();
        Resource requests = Quantities.parse(pod.getRequests(), "intent.requests", problems);
        NodeAffinity affinity = affinity(Strings.of(pod.getAffinity()), "intent.affinity", problems);
        List<Toleration> tolerations = new ArrayList<>();
        for (int i = 0; i < pod.getTolerations().size(); i++) {
            Toleration t = toleration(pod.getTolerations().get(i), "intent.tolerations[" + i + "]", problems);
            if (t != null) tolerations.add(t);
        }
        MappingException.throwIfAny(problems);
        boolean preemptable = !"false".equals(Strings.map(pod.getAnnotations()).get(PREEMPTABLE_ANNOTATION));
        int priority = pod.getPriority() == null ? groupPriority : pod.getPriority();
        return new TaskInfo(pod.getPod().toString(), pod.getTask().toString(), requests,
                Strings.map(pod.getNodeSelector()), affinity, tolerations, priority, preemptable, status, node);
    }

    /** Checks an intent when it arrives, so a bad one is dead-lettered rather than kept. */
    public static void check(CreatePod pod) {
        toTaskInfo(pod, 0, TaskStatus.Pending, null);
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

    /**
     * The required part of a Kubernetes {@code Affinity} JSON
     * ({@code nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms}); the
     * preferred terms and pod (anti-)affinity only order nodes in Kubernetes and are not used here.
     */
    static NodeAffinity affinity(String json, String path, List<Problem> problems) {
        if (json == null || json.isBlank()) return NodeAffinity.NONE;
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            problems.add(new Problem(path, "not JSON: " + e.getOriginalMessage()));
            return NodeAffinity.NONE;
        }
        JsonNode terms = root.path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms");
        if (terms.isMissingNode() || terms.isNull()) return NodeAffinity.NONE;
        String tp = path + ".nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
        if (!terms.isArray()) {
            problems.add(new Problem(tp, "expected a list"));
            return NodeAffinity.NONE;
        }
        List<NodeSelectorTerm> out = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            JsonNode exprs = terms.get(i).path("matchExpressions");
            List<NodeSelectorRequirement> reqs = new ArrayList<>();
            for (int j = 0; j < exprs.size(); j++) {
                JsonNode e = exprs.get(j);
                String ep = tp + "[" + i + "].matchExpressions[" + j + "]";
                String key = e.path("key").asText("");
                if (key.isEmpty()) problems.add(new Problem(ep + ".key", "must not be empty"));
                NodeSelectorRequirement.Operator op = null;
                String opText = e.path("operator").asText("");
                for (NodeSelectorRequirement.Operator o : NodeSelectorRequirement.Operator.values()) {
                    if (o.name().equals(opText)) op = o;
                }
                if (op == null) {
                    problems.add(new Problem(ep + ".operator", "unknown operator \"" + opText
                            + "\" (In, NotIn, Exists, DoesNotExist, Gt or Lt)"));
                    continue;
                }
                List<String> values = new ArrayList<>();
                e.path("values").forEach(v -> values.add(v.asText()));
                reqs.add(new NodeSelectorRequirement(key, op, values));
            }
            out.add(new NodeSelectorTerm(reqs));
        }
        return new NodeAffinity(out);
    }
}
