package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.WorldAction;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The plugin core/README.md's "Adding a job plugin" builds: every container gets the job's name in
 * an environment variable, and a ConfigMap {@code <job>-jobinfo} lists the job's tasks with their
 * replicas. Argument: {@code --env} (the variable's name, default VC_JOB_NAME).
 */
final class JobInfoPlugin implements JobPlugin {

    static final String NAME = "jobinfo";
    static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(ObjectKind.CONFIG_MAP), JobInfoPlugin::new);

    private final GoFlags flags;
    private final String variable;

    JobInfoPlugin(List<String> args) {
        this.flags = new GoFlags().string("env", "VC_JOB_NAME").parse(args);
        this.variable = flags.string("env");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> validate(JobSpec spec) {
        List<String> out = flags.problems();
        if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            out.add("--env: \"" + variable + "\" is not an environment variable name");
        }
        return out;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        Pods.eachContainer(pod, c -> Pods.addEnv(c, variable, job.name()));
    }

    static String configMapName(Job job) {
        return job.name() + "-" + NAME;
    }

    private static Map<String, String> tasks(Job job) {
        StringJoiner lines = new StringJoiner("\n");
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            lines.add(t.name() + " " + t.replicasOrZero());
        }
        return Map.of("tasks", lines.toString());
    }

    @Override
    public List<WorldAction> onJobAdd(Job job) {
        return List.of(new WorldAction.CreateConfigMap(configMapName(job), tasks(job)));
    }

    @Override
    public List<WorldAction> onJobUpdate(Job job) {
        return onJobAdd(job);
    }

    @Override
    public List<WorldAction> onJobDelete(Job job) {
        return List.of(new WorldAction.DeleteObject(ObjectKind.CONFIG_MAP.kind(), configMapName(job)));
    }
}
