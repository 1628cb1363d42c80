package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.WorldAction;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * ray (Volcano's distributed-framework/ray): a Ray cluster of one head and its workers. The head
 * task's head container opens the GCS, dashboard and client-server ports and runs
 * {@code ray start --head}; each worker task's worker container runs {@code ray start
 * --address=<head pod>.<job>:<port>}, the head's replica 0. A Service {@code <job>-head-svc}
 * selects the head's pods on the three ports. Ray needs no environment variables: the address and
 * ports are in the commands. Arguments: {@code --head} ("head"), {@code --headContainer} ("head"),
 * {@code --worker} ("worker"), {@code --workerContainer} ("worker"), {@code --port} (6379),
 * {@code --dashboardPort} (8265), {@code --clientPort} (10001).
 */
public final class RayPlugin implements JobPlugin {

    public static final String NAME = "ray";
    public static final String GCS_PORT = "gcs";
    public static final String DASHBOARD_PORT = "dashboard";
    public static final String CLIENT_SERVER_PORT = "client-server";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(ObjectKind.SERVICE), RayPlugin::new);

    private final GoFlags flags;
    private final String head;
    private final String headContainer;
    private final String worker;
    private final String workerContainer;
    private final int port;
    private final int dashboardPort;
    private final int clientPort;

    public RayPlugin(List<String> args) {
        flags = new GoFlags()
                .string("head", "head")
                .string("headContainer", "head")
                .string("worker", "worker")
                .string("workerContainer", "worker")
                .integer("port", 6379)
                .integer("dashboardPort", 8265)
                .integer("clientPort", 10001)
                .parse(args);
        head = flags.string("head");
        headContainer = flags.string("headContainer");
        worker = flags.string("worker");
        workerContainer = flags.string("workerContainer");
        port = flags.integer("port");
        dashboardPort = flags.integer("dashboardPort");
        clientPort = flags.integer("clientPort");
    }

    @Override
    public String name() {
        return NAME;
    }

    public static String serviceName(Job job) {
        return job.name() + "-head-svc";
    }

    /**
     * Flags Go stops at and ports out of range are rejected; so is a job without the head task
     * (Volcano then fails to create every pod) and a head or worker task without the container
     * the plugin edits (Volcano then starts no Ray there). A job without workers is a head alone.
     */
    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems("port", "dashboardPort", "clientPort");
        Optional<TaskSpec> h = Pods.task(spec, head);
        if (h.isEmpty()) {
            out.add("the head task \"" + head + "\" was not found: a Ray cluster needs its head");
        } else if (!hasContainer(h.get(), headContainer)) {
            out.add("the head task \"" + head + "\" has no container \"" + headContainer
                    + "\" (--headContainer) to run the Ray head");
        }
        Pods.task(spec, worker)
                .filter(w -> !hasContainer(w, workerContainer))
                .ifPresent(w -> out.add("the worker task \"" + worker + "\" has no container \"" + workerContainer
                        + "\" (--workerContainer) to run a Ray worker"));
        return out;
    }

    private static boolean hasContainer(TaskSpec task, String name) {
        return task.pod().containers().stream()
                .anyMatch(c -> c.name().filter(name::equals).isPresent());
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        Optional<TaskSpec> h = Pods.task(job.spec(), head);
        if (h.isEmpty()) {
            return;
        }
        for (ObjectNode c : Pods.containers(pod)) {
            String name = c.path("name").asText();
            if (task.equals(head) && name.equals(headContainer)) {
                Pods.openPort(c, GCS_PORT, port);
                Pods.openPort(c, DASHBOARD_PORT, dashboardPort);
                Pods.openPort(c, CLIENT_SERVER_PORT, clientPort);
                command(
                        c,
                        "ray start --head --block --dashboard-host=0.0.0.0 --port=" + port + " --dashboard-port="
                                + dashboardPort + " --ray-client-server-port=" + clientPort);
            }
            if (task.equals(worker) && name.equals(workerContainer)) {
                command(c, "ray start --block --address=" + Pods.host(job, h.get(), 0) + ":" + port);
            }
        }
    }

    private static void command(ObjectNode container, String script) {
        ArrayNode cmd = container.putArray("command");
        cmd.add("sh").add("-c").add(script);
    }

    @Override
    public List<WorldAction> onJobAdd(Job job) {
        return List.of(new WorldAction.CreateObject(ObjectKind.SERVICE.kind(), serviceName(job), service(job)));
    }

    @Override
    public List<WorldAction> onJobDelete(Job job) {
        return List.of(new WorldAction.DeleteObject(ObjectKind.SERVICE.kind(), serviceName(job)));
    }

    private ObjectNode service(Job job) {
        ObjectNode svc = JsonNodeFactory.instance.objectNode();
        svc.put("apiVersion", ObjectKind.SERVICE.apiVersion());
        svc.put("kind", ObjectKind.SERVICE.kind());
        ObjectNode meta = svc.putObject("metadata");
        meta.put("name", serviceName(job));
        meta.put("namespace", job.namespace());
        ObjectNode spec = svc.putObject("spec");
        ObjectNode selector = spec.putObject("selector");
        selector.put(PodLabels.JOB_NAME, job.name());
        selector.put(PodLabels.JOB_NAMESPACE, job.namespace());
        selector.put(PodLabels.TASK_SPEC, head);
        ArrayNode ports = spec.putArray("ports");
        port(ports, GCS_PORT, port);
        port(ports, DASHBOARD_PORT, dashboardPort);
        port(ports, CLIENT_SERVER_PORT, clientPort);
        return svc;
    }

    private static void port(ArrayNode ports, String name, int number) {
        ObjectNode p = ports.addObject();
        p.put("name", name);
        p.put("port", number);
        p.put("targetPort", name);
        p.put("protocol", "TCP");
    }
}
