package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * pytorch (Volcano's distributed-framework/pytorch): torch.distributed's rendezvous. Every
 * container opens the port ({@code pytorchjob-port}) and gets MASTER_ADDR (the master task's
 * replica 0, {@code <job>-<master>-0.<job>}), MASTER_PORT and WORLD_SIZE (the master and worker
 * replicas together); the master's RANK is 0, worker i's is i + 1, other tasks get none. With
 * {@code --wait-master-enabled} each worker pod first runs an init container that waits until the
 * master's port answers. Arguments: {@code --master} ("master"), {@code --worker} ("worker"),
 * {@code --port} (23456), {@code --wait-master-enabled} (false), {@code --wait-master-timeout}
 * (300 s), {@code --wait-master-image} ("busybox:1.36.1").
 */
public final class PytorchPlugin implements JobPlugin {

    public static final String NAME = "pytorch";
    public static final String MASTER_ADDR = "MASTER_ADDR";
    public static final String MASTER_PORT = "MASTER_PORT";
    public static final String WORLD_SIZE = "WORLD_SIZE";
    public static final String RANK = "RANK";
    public static final String PORT_NAME = "pytorchjob-port";
    public static final String WAIT_FOR_MASTER = "wait-for-master";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), PytorchPlugin::new);

    private final GoFlags flags;
    private final String master;
    private final String worker;
    private final int port;
    private final boolean waitMaster;
    private final int waitTimeout;
    private final String waitImage;

    public PytorchPlugin(List<String> args) {
        flags = new GoFlags()
                .string("master", "master")
                .string("worker", "worker")
                .integer("port", 23456)
                .bool("wait-master-enabled", false)
                .integer("wait-master-timeout", 300)
                .string("wait-master-image", "busybox:1.36.1")
                .parse(args);
        master = flags.string("master");
        worker = flags.string("worker");
        port = flags.integer("port");
        waitMaster = flags.bool("wait-master-enabled");
        waitTimeout = flags.integer("wait-master-timeout");
        waitImage = flags.string("wait-master-image");
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Volcano reads no admission rule here; what it would skip or leave broken is rejected: flags Go
     * stops at, a port no container can open, a master task that is not there (Volcano then leaves
     * every pod as it is), an empty wait image.
     */
    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems("port");
        if (Pods.task(spec, master).isEmpty()) {
            out.add("the master task \"" + master + "\" was not found: the pytorch plugin needs it for MASTER_ADDR");
        }
        if (waitMaster && waitImage.isEmpty()) {
            out.add("--wait-master-image: must not be empty when --wait-master-enabled");
        }
        return out;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        Optional<TaskSpec> masterTask = Pods.task(job.spec(), master);
        if (masterTask.isEmpty()) {
            return;
        }
        String masterAddr = Pods.host(job, masterTask.get(), 0);
        String rank = task.equals(worker) ? Integer.toString(index + 1) : task.equals(master) ? "0" : null;
        if (task.equals(worker) && waitMaster) {
            addWaitForMaster(pod, masterAddr);
        }
        String worldSize = Integer.toString(worldSize(job));
        for (ObjectNode c : Pods.containers(pod)) {
            Pods.openPort(c, PORT_NAME, port);
            Pods.addEnv(c, MASTER_ADDR, masterAddr);
            Pods.addEnv(c, MASTER_PORT, Integer.toString(port));
            Pods.addEnv(c, WORLD_SIZE, worldSize);
            if (rank != null) {
                Pods.addEnv(c, RANK, rank);
            }
        }
    }

    private int worldSize(Job job) {
        int n = 0;
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            if (t.name().equals(master) || t.name().equals(worker)) {
                n += t.replicasOrZero();
            }
        }
        return n;
    }

    private void addWaitForMaster(ObjectNode pod, String masterAddr) {
        for (JsonNode c : Pods.spec(pod).path("initContainers")) {
            if (WAIT_FOR_MASTER.equals(c.path("name").asText())) {
                return;
            }
        }
        ObjectNode init = Pods.array(Pods.spec(pod), "initContainers").addObject();
        init.put("name", WAIT_FOR_MASTER);
        init.put("image", waitImage);
        init.putArray("command").add("sh").add("-c").add(waitForMasterScript(masterAddr));
    }

    /** Volcano's generateWaitForMasterScript, character for character. */
    String waitForMasterScript(String masterAddr) {
        return """
                echo "Waiting for master node %1$s:%2$d to be ready..."
                TIMEOUT=%3$d
                ELAPSED=0
                until { nc -z %1$s %2$d || echo > /dev/tcp/%1$s/%2$d; } 2>/dev/null; do
                  if [ $ELAPSED -ge $TIMEOUT ]; then
                    echo "Timeout waiting for master after ${TIMEOUT} seconds"
                    exit 1
                  fi
                  echo "Master not ready yet, retrying in 2 seconds... (elapsed: ${ELAPSED}s)"
                  sleep 2
                  ELAPSED=$((ELAPSED + 2))
                done
                echo "Master node is ready!\"""".formatted(masterAddr, port, waitTimeout);
    }
}
