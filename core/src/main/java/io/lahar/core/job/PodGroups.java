package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.OwnerReference;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.resource.Resource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's PodGroup, the gang the scheduler admits whole: minMember is the job's minAvailable,
 * minTaskMember each task's minAvailable (its replicas when not given), minResources what the
 * first minAvailable pods request (Volcano's CalcPGMinResources: first each task's own
 * minAvailable pods, then more replicas until minAvailable pods are counted).
 */
public final class PodGroups {

    private PodGroups() {}

    /** Named {@code <job>-<uid>} when the job has a uid (today's Volcano), else after the job. */
    public static String name(Job job) {
        String uid = job.metadata() == null ? null : job.metadata().uid();
        return uid == null || uid.isEmpty() ? job.name() : job.name() + "-" + uid;
    }

    public static PodGroup build(Job job) {
        ObjectMeta meta = new ObjectMeta(
                name(job),
                null,
                job.namespace(),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                List.of(new OwnerReference(
                        Job.API_VERSION,
                        Job.KIND,
                        job.name(),
                        job.metadata() == null ? null : job.metadata().uid(),
                        true,
                        true)),
                null);
        Map<String, Integer> minTaskMember = new LinkedHashMap<>();
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            minTaskMember.put(t.name(), t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero());
        }
        String queue = job.spec().queue() == null ? "default" : job.spec().queue();
        PodGroup.PodGroupSpec spec = new PodGroup.PodGroupSpec(
                minAvailable(job),
                minTaskMember,
                queue,
                job.spec().priorityClassName(),
                minResources(job).toQuantities(),
                job.spec().networkTopology(),
                subGroupPolicy(job));
        return new PodGroup(PodGroup.API_VERSION, PodGroup.KIND, meta, spec, null);
    }

    /**
     * Volcano's setPgSubGroupPolicy: each task with a partitionPolicy makes its partitions
     * sub-gangs: its pods (by their task label) grouped by partition id, each of partitionSize
     * pods, minPartitions of them needed whole.
     */
    static List<PodGroup.SubGroupPolicySpec> subGroupPolicy(Job job) {
        List<PodGroup.SubGroupPolicySpec> out = new ArrayList<>();
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            if (t.partitionPolicy() == null) {
                continue;
            }
            Integer min = t.partitionPolicy().minPartitions();
            out.add(new PodGroup.SubGroupPolicySpec(
                    t.name(),
                    t.partitionPolicy().partitionSize(),
                    min == null ? 0 : min,
                    new PodGroup.LabelSelector(Map.of(PodLabels.TASK_SPEC, t.name())),
                    List.of(PodLabels.PARTITION_ID)));
        }
        return out;
    }

    static int minAvailable(Job job) {
        Integer m = job.spec().minAvailable();
        return m != null ? m : job.spec().totalReplicas();
    }

    /** What one replica of {@code task} requests. */
    static Resource podRequest(TaskSpec task) {
        Map<String, String> q = new LinkedHashMap<>();
        for (Map.Entry<String, BigDecimal> e : task.pod().effectiveRequests().entrySet()) {
            q.put(e.getKey(), e.getValue().toPlainString());
        }
        try {
            return Resource.parse(q);
        } catch (IllegalArgumentException e) {
            // Admission validates the template; a quantity it let through but Resource cannot
            // read must not stop the job, it only leaves that request out of minResources.
            return Resource.EMPTY;
        }
    }

    public static Resource minResources(Job job) {
        int jobMin = minAvailable(job);
        Resource total = Resource.EMPTY;
        int counted = 0;
        List<TaskSpec> tasks = job.spec().tasksOrEmpty();
        for (TaskSpec t : tasks) {
            if (counted >= jobMin) {
                break;
            }
            int own = t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero();
            int n = Math.min(own, jobMin - counted);
            total = total.add(times(podRequest(t), n));
            counted += n;
        }
        for (TaskSpec t : tasks) {
            if (counted >= jobMin) {
                break;
            }
            int own = t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero();
            int spare = t.replicasOrZero() - own;
            if (spare <= 0) {
                continue;
            }
            int n = Math.min(spare, jobMin - counted);
            total = total.add(times(podRequest(t), n));
            counted += n;
        }
        return total;
    }

    private static Resource times(Resource r, int n) {
        Resource out = Resource.EMPTY;
        for (int i = 0; i < n; i++) {
            out = out.add(r);
        }
        return out;
    }
}
