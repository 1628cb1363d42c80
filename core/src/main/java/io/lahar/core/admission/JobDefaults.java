package io.lahar.core.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's job mutating webhook (mutate_job.go): the defaults a Job gets on create. Idempotent,
 * so admission can also default the stored object of an update before comparing.
 */
public final class JobDefaults {

    public static final String DEFAULT_QUEUE = "default";
    public static final String DEFAULT_SCHEDULER = "volcano";
    public static final int DEFAULT_MAX_RETRY = 3;
    /** Volcano names an unnamed task "default" + its index. */
    public static final String DEFAULT_TASK_PREFIX = "default";

    private JobDefaults() {}

    public static Job apply(Job job) {
        return job.spec() == null ? job : job.withSpec(apply(job.spec()));
    }

    public static JobSpec apply(JobSpec spec) {
        JobSpec out = spec;
        if (isEmpty(out.queue())) {
            out = out.withQueue(DEFAULT_QUEUE);
        }
        if (isEmpty(out.schedulerName())) {
            out = out.withSchedulerName(DEFAULT_SCHEDULER);
        }
        // Volcano cannot tell 0 from unset (int32 omitempty), so an explicit 0 is defaulted too.
        if (out.maxRetry() == null || out.maxRetry() == 0) {
            out = out.withMaxRetry(DEFAULT_MAX_RETRY);
        }
        if (out.tasks() != null) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < out.tasks().size(); i++) {
                TaskSpec t = out.tasks().get(i);
                tasks.add(t == null ? null : defaultTask(t, i));
            }
            out = out.withTasks(tasks);
        }
        if (out.minAvailable() == null || out.minAvailable() == 0) {
            // Sum of the (already defaulted) task minAvailable, each defaulting to its replicas;
            // summed in a long, since admission reports replicas past the pod limit, not a wrapped sum.
            long sum = out.tasksOrEmpty().stream()
                    .filter(java.util.Objects::nonNull)
                    .mapToLong(t -> t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero())
                    .sum();
            out = out.withMinAvailable(saturated(sum));
        }
        if (out.plugins() != null) {
            out = out.withPlugins(impliedPlugins(out.plugins()));
        }
        return out;
    }

    private static TaskSpec defaultTask(TaskSpec task, int index) {
        TaskSpec t = task;
        if (isEmpty(t.name())) {
            t = t.withName(DEFAULT_TASK_PREFIX + index);
        }
        if (t.template() != null) {
            JsonNode spec = t.template().path("spec");
            if (spec.isObject()
                    && spec.path("hostNetwork").asBoolean(false)
                    && isEmpty(spec.path("dnsPolicy").asText(""))) {
                // Host-network pods still need cluster DNS; Volcano sets ClusterFirstWithHostNet.
                ObjectNode template = t.template().deepCopy();
                ((ObjectNode) template.get("spec")).put("dnsPolicy", "ClusterFirstWithHostNet");
                t = t.withTemplate(template);
            }
        }
        if (t.minAvailable() == null) {
            // A partitioned task's gang is its minimum partitions; otherwise every replica.
            var p = t.partitionPolicy();
            boolean partitioned = p != null
                    && p.minPartitions() != null
                    && p.partitionSize() != null
                    && p.minPartitions() >= 0
                    && p.partitionSize() > 0;
            t = t.withMinAvailable(
                    partitioned
                            ? saturated((long) p.minPartitions() * p.partitionSize())
                            : Math.max(0, t.replicasOrZero()));
        }
        if (t.maxRetry() == null || t.maxRetry() == 0) {
            t = t.withMaxRetry(DEFAULT_MAX_RETRY);
        }
        return t;
    }

    /** tensorflow, mpi, pytorch and ray need svc; mpi also needs ssh (Volcano's patchDefaultPlugins). */
    static Map<String, List<String>> impliedPlugins(Map<String, List<String>> plugins) {
        Map<String, List<String>> out = new LinkedHashMap<>(plugins);
        if (plugins.containsKey("tensorflow")
                || plugins.containsKey("mpi")
                || plugins.containsKey("pytorch")
                || plugins.containsKey("ray")) {
            out.putIfAbsent("svc", List.of());
        }
        if (plugins.containsKey("mpi")) {
            out.putIfAbsent("ssh", List.of());
        }
        return out;
    }

    /** An int as close to {@code n} as there is: validation then reports it against the replicas. */
    private static int saturated(long n) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n));
    }

    static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }
}
