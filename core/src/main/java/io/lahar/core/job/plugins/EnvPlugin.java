package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import java.util.List;
import java.util.Set;

/**
 * env: tells every container its replica index, as VK_TASK_INDEX (the historical name) and
 * VC_TASK_INDEX. Takes no arguments.
 */
public final class EnvPlugin implements JobPlugin {

    public static final String NAME = "env";
    public static final String VK_TASK_INDEX = "VK_TASK_INDEX";
    public static final String VC_TASK_INDEX = "VC_TASK_INDEX";
    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(), EnvPlugin::new);

    private final List<String> args;

    public EnvPlugin(List<String> args) {
        this.args = args == null ? List.of() : args;
    }

    /** Volcano's env plugin reads no arguments; one given here would be ignored, so it is refused. */
    @Override
    public List<String> validate(JobSpec spec) {
        return args.isEmpty() ? List.of() : List.of("the env plugin takes no arguments, got " + args);
    }

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
