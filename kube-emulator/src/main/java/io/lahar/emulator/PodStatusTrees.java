package io.lahar.emulator;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The statuses the simulated kubelet writes, built as trees from the stored pod's tree: the JSON
 * it wrote when it built them through fabric8's {@code Pod} model, which the store's clients see.
 * So a status is laid out as that model writes it: its fields in the model's order with the
 * fields the model does not know last, no nulls, no empty lists. A stored status of another shape
 * (a null, a field of a kind not read here, an empty list) is first read through the model, as
 * it was then; the statuses the emulator's own writers leave never need it.
 */
final class PodStatusTrees {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> STATUS_ORDER = order(PodStatus.class);
    private static final List<String> CONDITION_ORDER = order(PodCondition.class);
    /** The status's fields of one string, read or kept as they are. */
    private static final Set<String> TEXTS =
            Set.of("hostIP", "message", "nominatedNodeName", "phase", "podIP", "qosClass", "reason", "startTime");

    private static final String[] RUNNING_CONDITIONS = {
        "PodReadyToStartContainers", "True",
        "Initialized", "True",
        "Ready", "True",
        "ContainersReady", "True",
        "PodScheduled", "True"
    };
    private static final String[] ENDED_CONDITIONS = {"Ready", "False", "ContainersReady", "False"};

    private PodStatusTrees() {}

    /**
     * The status of {@code pod} started at {@code at} on a node at {@code hostIp}, every container
     * running; null when it is no longer Pending (someone else moved it on).
     */
    static ObjectNode running(JsonNode pod, String hostIp, String podIp, String at) {
        ObjectNode status = statusOf(pod);
        if (status == null) {
            status = NODES.objectNode();
        }
        String phase = text(status.get("phase"));
        if (phase != null && !"Pending".equals(phase)) {
            return null;
        }
        String uid = text(pod.path("metadata").get("uid"));
        ArrayNode containers = NODES.arrayNode();
        for (JsonNode c : containersOf(pod)) {
            ObjectNode state = NODES.objectNode();
            state.putObject("running").put("startedAt", at);
            containers.add(containerStatus(uid, c, true, state));
        }
        Map<String, JsonNode> set = new HashMap<>();
        set.put("phase", NODES.textNode("Running"));
        set.put("hostIP", NODES.textNode(hostIp));
        set.put("hostIPs", ips(hostIp));
        set.put("podIP", NODES.textNode(podIp));
        set.put("podIPs", ips(podIp));
        set.put("startTime", NODES.textNode(at));
        set.put("conditions", array(withConditions(conditionsOf(status), at, RUNNING_CONDITIONS)));
        set.put("containerStatuses", containers.isEmpty() ? null : containers);
        return ordered(status, STATUS_ORDER, set);
    }

    /**
     * The status of {@code pod} whose containers ended at {@code at} with {@code exitCode}:
     * Succeeded for 0, Failed for any other; null when it is not Running.
     */
    static ObjectNode ended(JsonNode pod, int exitCode, String at) {
        ObjectNode status = statusOf(pod);
        if (status == null || !"Running".equals(text(status.get("phase")))) {
            return null;
        }
        boolean succeeds = exitCode == 0;
        String uid = text(pod.path("metadata").get("uid"));
        String startTime = text(status.get("startTime"));
        JsonNode before = status.path("containerStatuses");
        ArrayNode containers = NODES.arrayNode();
        for (JsonNode c : containersOf(pod)) {
            String name = text(c.get("name"));
            String startedAt = startTime;
            for (JsonNode s : before) {
                if (name.equals(text(s.get("name")))) {
                    JsonNode running = s.path("state").get("running");
                    startedAt = running == null || running.isNull() ? startTime : text(running.get("startedAt"));
                    break;
                }
            }
            String containerId = containerId(uid, name);
            ObjectNode terminated = NODES.objectNode()
                    .put("containerID", containerId)
                    .put("exitCode", exitCode)
                    .put("finishedAt", at)
                    .put("reason", succeeds ? "Completed" : "Error");
            if (startedAt != null) {
                terminated.put("startedAt", startedAt);
            }
            ObjectNode state = NODES.objectNode();
            state.set("terminated", terminated);
            containers.add(containerStatus(uid, c, false, state));
        }
        String readyReason = succeeds ? "PodCompleted" : "PodFailed";
        List<ObjectNode> conditions = withConditions(conditionsOf(status), at, ENDED_CONDITIONS);
        for (int i = 0; i < conditions.size(); i++) {
            String type = text(conditions.get(i).get("type"));
            if ("Ready".equals(type) || "ContainersReady".equals(type)) {
                conditions.set(
                        i, ordered(conditions.get(i), CONDITION_ORDER, Map.of("reason", NODES.textNode(readyReason))));
            }
        }
        Map<String, JsonNode> set = new HashMap<>();
        set.put("phase", NODES.textNode(succeeds ? "Succeeded" : "Failed"));
        set.put("conditions", array(conditions));
        set.put("containerStatuses", containers.isEmpty() ? null : containers);
        return ordered(status, STATUS_ORDER, set);
    }

    /** The status of a container of the pod, running or ended as {@code state} says. */
    private static ObjectNode containerStatus(String uid, JsonNode container, boolean running, ObjectNode state) {
        String name = text(container.get("name"));
        String image = text(container.get("image"));
        ObjectNode status = NODES.objectNode().put("containerID", containerId(uid, name));
        if (image != null) {
            status.put("image", image);
        }
        status.put("imageID", "");
        if (name != null) {
            status.put("name", name);
        }
        status.put("ready", running).put("restartCount", 0).put("started", running);
        status.set("state", state);
        return status;
    }

    /** Conditions merged by type: the given (type, status) pairs replace or join the existing ones. */
    private static List<ObjectNode> withConditions(List<ObjectNode> existing, String at, String... typeStatus) {
        List<ObjectNode> result = new ArrayList<>(existing);
        for (int i = 0; i < typeStatus.length; i += 2) {
            String type = typeStatus[i];
            String status = typeStatus[i + 1];
            ObjectNode condition = NODES.objectNode()
                    .put("lastTransitionTime", at)
                    .put("status", status)
                    .put("type", type);
            boolean replaced = false;
            for (int j = 0; j < result.size(); j++) {
                if (type.equals(text(result.get(j).get("type")))) {
                    if (!Objects.equals(status, text(result.get(j).get("status")))) {
                        result.set(j, condition);
                    }
                    replaced = true;
                }
            }
            if (!replaced) {
                result.add(condition);
            }
        }
        return result;
    }

    /** The status's conditions, each laid out as the model writes it. */
    private static List<ObjectNode> conditionsOf(ObjectNode status) {
        List<ObjectNode> conditions = new ArrayList<>();
        for (JsonNode c : status.path("conditions")) {
            conditions.add(ordered((ObjectNode) c, CONDITION_ORDER, Map.of()));
        }
        return conditions;
    }

    /**
     * {@code source}'s fields with {@code set}'s in their stead (a null value: none), in the
     * model's {@code order}, then the fields the model does not know in their own order.
     */
    private static ObjectNode ordered(ObjectNode source, List<String> order, Map<String, JsonNode> set) {
        ObjectNode result = NODES.objectNode();
        for (String field : order) {
            JsonNode value = set.containsKey(field) ? set.get(field) : source.get(field);
            if (value != null) {
                result.set(field, value);
            }
        }
        source.properties().forEach(field -> {
            if (!order.contains(field.getKey())) {
                result.set(field.getKey(), field.getValue());
            }
        });
        return result;
    }

    /**
     * The pod's status (the store's, not to be changed), read through the model first when it has
     * a shape the model would write otherwise; null when it has none.
     */
    private static ObjectNode statusOf(JsonNode pod) {
        JsonNode status = pod.get("status");
        if (status == null || status.isNull()) {
            return null;
        }
        if (plain(status)) {
            return (ObjectNode) status;
        }
        try {
            return Serialization.jsonMapper()
                    .valueToTree(Serialization.jsonMapper().treeToValue(status, PodStatus.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "a pod's status as stored is not a pod's status: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Whether the model would write {@code status} as it is but for its fields' order: strings
     * where it holds strings, non-empty lists of conditions and addresses of strings, container
     * statuses (which the kubelet replaces) whose name and start are strings.
     */
    private static boolean plain(JsonNode status) {
        if (!status.isObject()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> field : status.properties()) {
            JsonNode value = field.getValue();
            boolean plain = switch (field.getKey()) {
                case "conditions" -> nonEmptyObjects(value, CONDITION_ORDER);
                case "hostIPs", "podIPs" -> nonEmptyObjects(value, List.of("ip"));
                case "containerStatuses" -> containerStatuses(value);
                default -> TEXTS.contains(field.getKey()) && value.isTextual();
            };
            if (!plain) {
                return false;
            }
        }
        return true;
    }

    /** A non-empty list of objects whose fields are all among {@code fields}, each a string; observedGeneration is no string. */
    private static boolean nonEmptyObjects(JsonNode list, List<String> fields) {
        if (!list.isArray() || list.isEmpty()) {
            return false;
        }
        for (JsonNode item : list) {
            if (!item.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : item.properties()) {
                if (!fields.contains(field.getKey())
                        || !field.getValue().isTextual()
                        || "observedGeneration".equals(field.getKey())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean containerStatuses(JsonNode list) {
        if (!list.isArray() || list.isEmpty()) {
            return false;
        }
        for (JsonNode s : list) {
            if (!s.isObject() || !textOrAbsent(s.get("name"))) {
                return false;
            }
            JsonNode state = s.get("state");
            if (state != null) {
                JsonNode running = state.get("running");
                if (!state.isObject()
                        || (running != null && (!running.isObject() || !textOrAbsent(running.get("startedAt"))))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean textOrAbsent(JsonNode node) {
        return node == null || node.isTextual();
    }

    /** The pod's containers as its spec lists them; a pod with no spec is no pod to start. */
    private static JsonNode containersOf(JsonNode pod) {
        JsonNode spec = pod.get("spec");
        if (spec == null || spec.isNull()) {
            throw new IllegalStateException("a pod with no spec");
        }
        return spec.path("containers");
    }

    private static ArrayNode ips(String ip) {
        ArrayNode ips = NODES.arrayNode();
        ips.addObject().put("ip", ip);
        return ips;
    }

    private static ArrayNode array(List<ObjectNode> items) {
        ArrayNode array = NODES.arrayNode(items.size());
        items.forEach(array::add);
        return array;
    }

    private static String containerId(String uid, String name) {
        return "lahar-sim://" + uid + "/" + name;
    }

    /** A string field as the model reads it: null for none, a number or flag as its text. */
    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static List<String> order(Class<?> model) {
        return List.of(model.getAnnotation(JsonPropertyOrder.class).value());
    }
}
