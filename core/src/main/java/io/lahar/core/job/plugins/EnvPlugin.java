package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;

import java.util.Set;

/**
 * env: tells every container its replica index, as VK_TASK_INDEX (the historical name) and
 * VC_TASK_INDEX. Takes no arguments.
 */
public final class EnvPlugin implements JobPlugin {

    public static final String NAME = "env";
    public static final String VK_TASK_INDEX = "VK_TASK_INDEX";
    public static final String VC_TASK_INDEX = "VC_TASK_INDEX";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), args -> new EnvPlugin());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        String value = Integer.toString(index);
        Pods.eachContainer(pod, c -> {
            Pods.addEnv(c, VK_TASK_INDEX, value);
            Pods.addEnv(c, VC_TASK_INDEX, value);
        });
    }
}
