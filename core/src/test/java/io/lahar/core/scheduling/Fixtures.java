package io.lahar.core.scheduling;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small builders for scheduling scenarios. */
public final class Fixtures {
    private Fixtures() {}

    public static NodeInfo node(String name, String cpu, String memory) {
        return NodeInfo.builder(name)
                .allocatable(Map.of("cpu", cpu, "memory", memory))
                .build();
    }

    public static List<NodeInfo> nodes(int count, String cpu, String memory) {
        List<NodeInfo> out = new ArrayList<>();
        for (int i = 0; i < count; i++) out.add(node("n" + i, cpu, memory));
        return out;
    }

    /** A pending gang of {@code count} identical tasks in a queue. */
    public static JobInfo gang(String name, String queue, int count, int minMember, String cpu) {
        return JobInfo.builder(name)
                .queue(queue)
                .tasks("worker", count, Map.of("cpu", cpu, "memory", "1Gi"))
                .minMember(minMember)
                .minResources(null)
                .build();
    }

    /** A job of {@code count} tasks already running (one per listed node, round robin). */
    public static JobInfo running(String name, String queue, int priority, String cpu, String... nodes) {
        JobInfo.Builder b =
                JobInfo.builder(name).queue(queue).priority(priority).phase(PodGroupPhase.Running);
        for (int i = 0; i < nodes.length; i++) {
            b.task(TaskInfo.builder(name + "-worker-" + i)
                    .role("worker")
                    .priority(priority)
                    .resreq(Map.of("cpu", cpu, "memory", "1Gi"))
                    .on(nodes[i], TaskStatus.Running)
                    .build());
        }
        return b.minMember(1).build();
    }

    public static SchedulerConf conf(String yaml) {
        return SchedulerConf.parse(yaml);
    }

    /** Actions over the default tiers. */
    public static SchedulerConf defaultTiers(String actions) {
        return SchedulerConf.parse(SchedulerConf.DEFAULT_YAML.replace("enqueue, allocate, backfill", actions));
    }

    public static SessionResult run(
            SchedulerConf conf, List<NodeInfo> nodes, List<QueueInfo> queues, List<JobInfo> jobs) {
        return new Scheduler(conf).schedule(new Snapshot(nodes, queues, jobs));
    }

    public static SessionResult run(List<NodeInfo> nodes, List<QueueInfo> queues, List<JobInfo> jobs) {
        return run(SchedulerConf.defaults(), nodes, queues, jobs);
    }

    public static long boundIn(SessionResult r, String job) {
        return r.bindings().stream().filter(b -> b.job().equals(job)).count();
    }

    public static String key(String name) {
        return "default/" + name;
    }
}
