package io.lahar.bridge;

import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.PodIntent;
import java.time.Instant;
import java.util.Map;

/** Pod intents as the engine writes them, for tests. */
public final class TestIntents {

    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private TestIntents() {}

    public static String template(String command) {
        return """
                {"metadata":{"labels":{"app":"demo"},"annotations":{"note":"kept"}},
                 "spec":{"restartPolicy":"Never","containers":[{"name":"main","image":"busybox",
                   "command":["sh","-c","%s"],"resources":{"requests":{"cpu":"1"}}}]}}""".formatted(command);
    }

    public static PodIntent create(String ns, String job, String task, int index, int version, String template) {
        String pod = job + "-" + task + "-" + index;
        return PodIntent.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setJobUid("uid-" + job)
                .setTime(T0)
                .setIntent(CreatePod.newBuilder()
                        .setPod(pod)
                        .setTask(task)
                        .setIndex(index)
                        .setJobVersion(version)
                        .setPodGroup(job)
                        .setLabels(
                                Map.of(PodLabels.JOB_NAME, job, PodLabels.JOB_NAMESPACE, ns, PodLabels.TASK_SPEC, task))
                        .setAnnotations(
                                Map.of(PodLabels.TASK_INDEX, Integer.toString(index), PodLabels.GROUP_NAME, job))
                        .setSchedulerName("volcano")
                        .setTemplate(template)
                        .build())
                .build();
    }

    public static PodIntent delete(String ns, String job, String pod, int version) {
        return PodIntent.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setJobUid("uid-" + job)
                .setTime(T0)
                .setIntent(DeletePod.newBuilder()
                        .setPod(pod)
                        .setJobVersion(version)
                        .setReason("RestartJob")
                        .build())
                .build();
    }
}
