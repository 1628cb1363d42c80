package io.lahar.core.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.api.VolumeSpec;
import io.lahar.core.job.plugins.JobPlugin;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.job.plugins.Pods;
import java.util.List;
import java.util.Map;

/**
 * Builds the pod for one task replica as Volcano's createJobPod does: the task's template,
 * named {@code <job>-<task>-<index>}, owned by the job, with the job's scheduler, priority class
 * and volumes, Volcano's labels and annotations, then each plugin's edits.
 */
public final class JobPods {

    private JobPods() {}

    public static String podName(String job, String task, int index) {
        return Pods.podName(job, task, index);
    }

    /** The claim a job volume mounts: its volumeClaimName, or one the engine names after the job. */
    public static String claimName(Job job, int volumeIndex) {
        VolumeSpec v = job.spec().volumesOrEmpty().get(volumeIndex);
        return v.volumeClaimName() != null && !v.volumeClaimName().isEmpty()
                ? v.volumeClaimName()
                : job.name() + "-volume-" + volumeIndex;
    }

    public static ObjectNode create(
            Job job, TaskSpec task, int index, int version, int retryCount, String podGroup, List<JobPlugin> plugins) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode template =
                task.template() == null ? f.objectNode() : task.template().deepCopy();
        ObjectNode pod = f.objectNode();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        String name = podName(job.name(), task.name(), index);
        meta.put("name", name);
        meta.put("namespace", job.namespace());
        JsonNode tmeta = template.path("metadata");
        ObjectNode labels = tmeta.path("labels") instanceof ObjectNode l ? l.deepCopy() : f.objectNode();
        ObjectNode annotations = tmeta.path("annotations") instanceof ObjectNode a ? a.deepCopy() : f.objectNode();
        ObjectNode owner = meta.putArray("ownerReferences").addObject();
        owner.put("apiVersion", Job.API_VERSION);
        owner.put("kind", Job.KIND);
        owner.put("name", job.name());
        if (job.metadata() != null && job.metadata().uid() != null) {
            owner.put("uid", job.metadata().uid());
        }
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);

        ObjectNode spec = template.path("spec") instanceof ObjectNode s ? s : f.objectNode();
        pod.set("spec", spec);
        if (Pods.text(spec.path("schedulerName")).isEmpty() && job.spec().schedulerName() != null) {
            spec.put("schedulerName", job.spec().schedulerName());
        }
        if (Pods.text(spec.path("priorityClassName")).isEmpty()
                && job.spec().priorityClassName() != null
                && !job.spec().priorityClassName().isEmpty()) {
            spec.put("priorityClassName", job.spec().priorityClassName());
        }
        List<VolumeSpec> volumes = job.spec().volumesOrEmpty();
        for (int i = 0; i < volumes.size(); i++) {
            String volumeName = job.name() + "-volume-" + i;
            ObjectNode v = Pods.array(spec, "volumes").addObject();
            v.put("name", volumeName);
            v.putObject("persistentVolumeClaim").put("claimName", claimName(job, i));
            String mountPath = volumes.get(i).mountPath();
            JsonNode containers = spec.path("containers");
            if (containers.isArray()) {
                containers.forEach(c -> {
                    if (c instanceof ObjectNode o) {
                        ObjectNode m = Pods.array(o, "volumeMounts").addObject();
                        m.put("mountPath", mountPath);
                        m.put("name", volumeName);
                    }
                });
            }
        }

        String queue = job.spec().queue() == null ? "default" : job.spec().queue();
        annotations.put(PodLabels.TASK_INDEX, Integer.toString(index));
        annotations.put(PodLabels.TASK_SPEC, task.name());
        annotations.put(PodLabels.GROUP_NAME, podGroup);
        annotations.put(PodLabels.JOB_NAME, job.name());
        annotations.put(PodLabels.QUEUE_NAME, queue);
        annotations.put(PodLabels.JOB_VERSION, Integer.toString(version));
        annotations.put(PodLabels.POD_TEMPLATE, job.name() + "-" + task.name());
        annotations.put(PodLabels.JOB_RETRY_COUNT, Integer.toString(retryCount));
        if (task.topologyPolicy() != null && !task.topologyPolicy().isEmpty()) {
            annotations.put(PodLabels.NUMA_POLICY, task.topologyPolicy());
        }
        inheritFromJob(job, annotations, labels);
        labels.put(PodLabels.TASK_INDEX, Integer.toString(index));
        labels.put(PodLabels.JOB_NAME, job.name());
        labels.put(PodLabels.TASK_SPEC, task.name());
        labels.put(PodLabels.JOB_NAMESPACE, job.namespace());
        labels.put(PodLabels.QUEUE_NAME, queue);
        Integer partition = partition(task, index);
        if (partition != null) {
            labels.put(PodLabels.PARTITION_ID, Integer.toString(partition));
        }
        meta.set("labels", labels);
        meta.set("annotations", annotations);

        for (JobPlugin p : plugins) {
            p.onPodCreate(pod, job, task.name(), index);
        }
        return pod;
    }

    /**
     * What Volcano's createJobPod copies from the Job onto each pod, so that a Job marked
     * {@code volcano.sh/preemptable: "false"} keeps all its pods from being preempted: the Job's
     * preemptable, cooldown-time and revocable-zone annotations, its disruption budget (min-available,
     * else max-unavailable), and its preemptable and cooldown-time labels; the Job's value wins over
     * the template's, as there.
     */
    static void inheritFromJob(Job job, ObjectNode annotations, ObjectNode labels) {
        Map<String, String> jobAnnotations =
                job.metadata() == null || job.metadata().annotations() == null
                        ? Map.of()
                        : job.metadata().annotations();
        for (String key : List.of(PodLabels.PREEMPTABLE, PodLabels.COOLDOWN_TIME, PodLabels.REVOCABLE_ZONE)) {
            String value = jobAnnotations.get(key);
            if (value != null) {
                annotations.put(key, value);
            }
        }
        if (jobAnnotations.containsKey(PodLabels.JDB_MIN_AVAILABLE)) {
            annotations.put(PodLabels.JDB_MIN_AVAILABLE, jobAnnotations.get(PodLabels.JDB_MIN_AVAILABLE));
        } else if (jobAnnotations.containsKey(PodLabels.JDB_MAX_UNAVAILABLE)) {
            annotations.put(PodLabels.JDB_MAX_UNAVAILABLE, jobAnnotations.get(PodLabels.JDB_MAX_UNAVAILABLE));
        }
        Map<String, String> jobLabels = job.metadata() == null || job.metadata().labels() == null
                ? Map.of()
                : job.metadata().labels();
        for (String key : List.of(PodLabels.PREEMPTABLE, PodLabels.COOLDOWN_TIME)) {
            String value = jobLabels.get(key);
            if (value != null) {
                labels.put(key, value);
            }
        }
    }

    /**
     * The partition of a task's pod: its index divided by the partitionPolicy's partitionSize (0
     * without a size, as Volcano's createJobPod); null when the task has no partitionPolicy.
     */
    static Integer partition(TaskSpec task, int index) {
        if (task == null || task.partitionPolicy() == null) {
            return null;
        }
        Integer size = task.partitionPolicy().partitionSize();
        return size == null || size <= 0 ? 0 : index / size;
    }
}
