package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.TaskSpec;

import java.util.function.Consumer;

/** Small edits of a pod's JSON tree that several plugins make. */
public final class Pods {

    private Pods() {
    }

    /** Calls {@code edit} on every container and init container of the pod. */
    public static void eachContainer(ObjectNode pod, Consumer<ObjectNode> edit) {
        ObjectNode spec = spec(pod);
        for (String field : new String[] {"containers", "initContainers"}) {
            JsonNode list = spec.path(field);
            if (list.isArray()) {
                list.forEach(c -> {
                    if (c instanceof ObjectNode o) {
                        edit.accept(o);
                    }
                });
            }
        }
    }

    public static ObjectNode spec(ObjectNode pod) {
        JsonNode s = pod.get("spec");
        return s instanceof ObjectNode o ? o : pod.putObject("spec");
    }

    public static ArrayNode array(ObjectNode node, String field) {
        JsonNode a = node.get(field);
        return a instanceof ArrayNode arr ? arr : node.putArray(field);
    }

    public static void addEnv(ObjectNode container, String name, String value) {
        ObjectNode e = array(container, "env").addObject();
        e.put("name", name);
        e.put("value", value);
    }

    public static void addEnvFromConfigMap(ObjectNode container, String name, String configMap, String key) {
        ObjectNode e = array(container, "env").addObject();
        e.put("name", name);
        ObjectNode ref = e.putObject("valueFrom").putObject("configMapKeyRef");
        ref.put("name", configMap);
        ref.put("key", key);
    }

    /** The host a replica is reached at: hostname.subdomain, defaulting to pod name and job name. */
    public static String host(Job job, TaskSpec task, int index) {
        String hostname = text(task.pod().spec().path("hostname"));
        String subdomain = text(task.pod().spec().path("subdomain"));
        String h = hostname.isEmpty() ? podName(job.name(), task.name(), index) : hostname;
        String s = subdomain.isEmpty() ? job.name() : subdomain;
        return h + "." + s;
    }

    /** Whether the template pins one hostname, so the task has a single address (Volcano stops there). */
    public static boolean fixedHostname(TaskSpec task) {
        return !text(task.pod().spec().path("hostname")).isEmpty();
    }

    public static String podName(String job, String task, int index) {
        return job + "-" + task + "-" + index;
    }

    public static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : "";
    }
}
