package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import java.util.ArrayList;
import java.util.List;

/**
 * The jobs and pods of Volcano's plugin test tables, built as those tables build them: a job as
 * written (not admitted, so a table's job without its master task can be had) and a pod with only
 * a name, its task annotation and its containers.
 */
final class FrameworkPods {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FrameworkPods() {}

    /** A job {@code name} with tasks given as "name:replicas" pairs, each with a container of the task's name. */
    static Job job(String name, String... tasks) {
        StringBuilder y = new StringBuilder("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: ")
                .append(name)
                .append("}\nspec:\n  tasks:\n");
        for (String t : tasks) {
            String[] p = t.split(":");
            y.append("  - {name: ")
                    .append(p[0])
                    .append(", replicas: ")
                    .append(p[1])
                    .append(", template: {spec: {containers: [{name: ")
                    .append(p[0])
                    .append(", image: i}]}}}\n");
        }
        return Manifests.read(y.toString(), Job.class);
    }

    /** A pod named {@code name} of {@code task}, with {@code containers} (a JSON array). */
    static ObjectNode pod(String name, String task, String containers) {
        try {
            ObjectNode pod = JSON.createObjectNode();
            ObjectNode meta = pod.putObject("metadata");
            meta.put("name", name);
            meta.putObject("annotations").put(PodLabels.TASK_SPEC, task);
            pod.putObject("spec").set("containers", JSON.readTree(containers));
            return pod;
        } catch (Exception e) {
            throw new IllegalArgumentException(containers, e);
        }
    }

    /** The first container's env as "NAME=value" strings, in order. */
    static List<String> env(ObjectNode pod) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : pod.path("spec").path("containers").path(0).path("env")) {
            out.add(e.path("name").asText() + "=" + e.path("value").asText());
        }
        return out;
    }

    /** The first container's port numbers, in order. */
    static List<Integer> ports(ObjectNode pod) {
        List<Integer> out = new ArrayList<>();
        pod.path("spec")
                .path("containers")
                .path(0)
                .path("ports")
                .forEach(p -> out.add(p.path("containerPort").asInt()));
        return out;
    }
}
