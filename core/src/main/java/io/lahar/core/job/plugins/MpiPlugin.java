package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * mpi: master/worker wiring. Every container opens the ssh port (named {@code mpijob-port});
 * the master task's containers get MPI_HOST, the comma-separated worker hosts mpirun targets.
 * Arguments: {@code --master} (task name, default "master"), {@code --worker} (default
 * "worker"), {@code --port} (default 22).
 */
public final class MpiPlugin implements JobPlugin {

    public static final String NAME = "mpi";
    public static final String MPI_HOST = "MPI_HOST";
    public static final String PORT_NAME = "mpijob-port";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), MpiPlugin::new);

    private final String master;
    private final String worker;
    private final int port;

    private final GoFlags flags;

    public MpiPlugin(List<String> args) {
        flags = new GoFlags()
                .string("master", "master")
                .string("worker", "worker")
                .integer("port", 22)
                .parse(args);
        this.master = flags.string("master");
        this.worker = flags.string("worker");
        this.port = flags.integer("port");
    }

    @Override
    public String name() {
        return NAME;
    }

    public String master() {
        return master;
    }

    public String worker() {
        return worker;
    }

    public int port() {
        return port;
    }

    /** The worker hosts, comma-separated, as MPI_HOST holds them. */
    public String workerHosts(Job job) {
        Optional<TaskSpec> w = job.spec().tasksOrEmpty().stream()
                .filter(t -> worker.equals(t.name()))
                .findFirst();
        if (w.isEmpty()) {
            return "";
        }
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < w.get().replicasOrZero(); i++) {
            hosts.add(Pods.host(job, w.get(), i));
            if (Pods.fixedHostname(w.get())) {
                break;
            }
        }
        return String.join(",", hosts);
    }

    /** The master task must exist (Volcano's admission); like Volcano, a missing worker task is accepted. */
    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems("port");
        if (spec.tasksOrEmpty().stream().noneMatch(t -> t != null && master.equals(t.name()))) {
            out.add("The specified mpi master task was not found: \"" + master + "\"");
        }
        return out;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        boolean isMaster = master.equals(task);
        String hosts = isMaster ? workerHosts(job) : null;
        Pods.eachContainer(pod, c -> {
            Pods.openPort(c, PORT_NAME, port);
            if (isMaster) {
                Pods.addEnv(c, MPI_HOST, hosts);
            }
        });
    }
}
