package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tensorflow (Volcano's distributed-framework/tensorflow): every container gets TF_CONFIG, the
 * cluster (each role's hosts, {@code <pod>.<job>:<port>}, in the order ps, worker, chief,
 * evaluator; a role with no task left out) and this pod's task (its role, or its task name when it
 * has none, and its index). A stand-alone job (one task of one replica) gets none, as in Volcano.
 * Arguments: {@code --ps} ("ps"), {@code --worker} ("worker"), {@code --chief} ("chief"),
 * {@code --evaluator} ("evaluator"), {@code --port} (2222).
 */
public final class TensorflowPlugin implements JobPlugin {

    public static final String NAME = "tensorflow";
    public static final String TF_CONFIG = "TF_CONFIG";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), TensorflowPlugin::new);

    private final GoFlags flags;
    /** The role names as TF_CONFIG spells them, in its order, and the task each is read from. */
    private final List<String[]> roles;

    private final int port;

    public TensorflowPlugin(List<String> args) {
        flags = new GoFlags()
                .string("ps", "ps")
                .string("worker", "worker")
                .string("chief", "chief")
                .string("evaluator", "evaluator")
                .integer("port", 2222)
                .parse(args);
        roles = List.of(
                new String[] {"ps", flags.string("ps")},
                new String[] {"worker", flags.string("worker")},
                new String[] {"chief", flags.string("chief")},
                new String[] {"evaluator", flags.string("evaluator")});
        port = flags.integer("port");
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Flags Go stops at and a port no host can listen on are rejected; Volcano has no other rule. */
    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems("port");
        return out;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        List<TaskSpec> tasks = job.spec().tasksOrEmpty();
        if (tasks.size() == 1 && tasks.get(0).replicasOrZero() == 1) {
            return;
        }
        String config = tfConfig(job, task, index).toString();
        for (ObjectNode c : Pods.containers(pod)) {
            Pods.addEnv(c, TF_CONFIG, config);
        }
    }

    /** Volcano's tfClusterSpec as JSON: {"cluster":{"ps":[...],"worker":[...]},"task":{"type":"worker","index":0}}. */
    ObjectNode tfConfig(Job job, String task, int index) {
        Map<String, List<String>> hosts = new HashMap<>();
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            roles.stream().filter(r -> r[1].equals(t.name())).findFirst().ifPresent(r -> {
                List<String> h = new ArrayList<>();
                for (int i = 0; i < t.replicasOrZero(); i++) {
                    h.add(Pods.host(job, t, i) + ":" + port);
                }
                hosts.put(r[0], h);
            });
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode cluster = root.putObject("cluster");
        for (String[] r : roles) {
            List<String> h = hosts.getOrDefault(r[0], List.of());
            if (!h.isEmpty()) {
                h.forEach(cluster.putArray(r[0])::add);
            }
        }
        ObjectNode t = root.putObject("task");
        t.put("type", type(task));
        t.put("index", index);
        return root;
    }

    /** The pod's role (Volcano's getTaskType asks chief, worker, ps, evaluator in turn), else its task name. */
    private String type(String task) {
        for (int k : new int[] {2, 1, 0, 3}) {
            if (roles.get(k)[1].equals(task)) {
                return roles.get(k)[0];
            }
        }
        return task;
    }
}
