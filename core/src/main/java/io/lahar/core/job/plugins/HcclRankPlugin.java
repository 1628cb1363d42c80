package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import java.util.List;
import java.util.Set;

/**
 * hcclrank (Volcano's distributed-framework/hcclrank): the pod's rank in an HCCL (Ascend)
 * collective, as the annotation {@code hccl/rankIndex}. A rank given already is kept: the
 * annotation in the template, else a container's RANK variable (the template's, or the pytorch
 * plugin's, which is registered before this one so that its RANK counts); otherwise a master
 * replica's rank is its index and a worker's the master replicas plus its index. Pods of other
 * tasks get none. Arguments: {@code --master} ("master"), {@code --worker} ("worker").
 */
public final class HcclRankPlugin implements JobPlugin {

    public static final String NAME = "hcclrank";
    public static final String RANK_ANNOTATION = "hccl/rankIndex";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), HcclRankPlugin::new);

    private final GoFlags flags;
    private final String master;
    private final String worker;

    public HcclRankPlugin(List<String> args) {
        flags = new GoFlags()
                .string("master", "master")
                .string("worker", "worker")
                .parse(args);
        master = flags.string("master");
        worker = flags.string("worker");
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Flags Go stops at are rejected, and a job with neither role task, where no rank could be given. */
    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems();
        if (Pods.task(spec, master).isEmpty() && Pods.task(spec, worker).isEmpty()) {
            out.add("neither the master task \"" + master + "\" nor the worker task \"" + worker
                    + "\" was found: the hcclrank plugin ranks their pods");
        }
        return out;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        ObjectNode meta = pod.path("metadata") instanceof ObjectNode m ? m : pod.putObject("metadata");
        ObjectNode annotations = meta.path("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
        if (!Pods.text(annotations.path(RANK_ANNOTATION)).isEmpty()) {
            return;
        }
        String rank = rankEnv(pod);
        if (rank.isEmpty()) {
            if (task.equals(master)) {
                rank = Integer.toString(index);
            } else if (task.equals(worker)) {
                rank = Integer.toString(Pods.task(job.spec(), master)
                                .map(t -> t.replicasOrZero())
                                .orElse(0)
                        + index);
            } else {
                return;
            }
        }
        annotations.put(RANK_ANNOTATION, rank);
    }

    /** The first RANK value set on a container (Volcano's getEnv), or "". */
    private static String rankEnv(ObjectNode pod) {
        for (ObjectNode c : Pods.containers(pod)) {
            for (JsonNode e : c.path("env")) {
                if (PytorchPlugin.RANK.equals(e.path("name").asText())) {
                    return Pods.text(e.path("value"));
                }
            }
        }
        return "";
    }
}
