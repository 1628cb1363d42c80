package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Small edits of a pod's JSON tree that several plugins make. */
public final class Pods {

    private Pods() {}

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

    /** The pod's containers, init containers not among them (the framework plugins edit only these). */
    public static List<ObjectNode> containers(ObjectNode pod) {
        List<ObjectNode> out = new ArrayList<>();
        Pods.spec(pod).path("containers").forEach(c -> {
            if (c instanceof ObjectNode o) {
                out.add(o);
            }
        });
        return out;
    }

    /** Opens {@code port} under {@code name} unless the container lists that port number already. */
    public static void openPort(ObjectNode container, String name, int port) {
        for (JsonNode p : container.path("ports")) {
            if (p.path("containerPort").asInt(-1) == port) {
                return;
            }
        }
        ObjectNode p = array(container, "ports").addObject();
        p.put("name", name);
        p.put("containerPort", port);
    }

    /** The task of the job named {@code name}, if there is one. */
    public static Optional<TaskSpec> task(JobSpec spec, String name) {
        return spec.tasksOrEmpty().stream()
                .filter(t -> t != null && name.equals(t.name()))
                .findFirst();
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
