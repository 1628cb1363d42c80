package io.lahar.streams.queue;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodPhase;
import io.lahar.core.resource.Resource;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one job adds to its queue's status: the phase its pod group counts in (null: in none) and
 * the resources its running pods request. The lifecycle sends a job's share, keyed by queue,
 * whenever it changes; the queue-status aggregation adds the shares up.
 *
 * @param job   the job's key
 * @param phase Pending, Inqueue, Running, Completed or Unknown, as Volcano's QueueStatus counts
 *              pod groups; null when the job counts nowhere (finished otherwise, deleted, between runs)
 */
public record QueueShare(String queue, String job, String phase, Map<String, String> allocated, long time) {

    public QueueShare {
        allocated = allocated == null ? Map.of() : new TreeMap<>(allocated);
    }

    /** True when the share adds nothing: the aggregation forgets it. */
    public boolean empty() {
        return phase == null && allocated.isEmpty();
    }

    /** The share of a job in this state; a job that was never submitted has none (null). */
    public static QueueShare of(String key, JobInfo info, long time) {
        if (info == null || !info.submitted()) {
            return null;
        }
        Job job = info.job();
        String queue = job.spec().queue() == null ? "default" : job.spec().queue();
        if (info.deleted()) {
            return new QueueShare(queue, key, null, Map.of(), time);
        }
        return new QueueShare(queue, key, phase(info), allocated(job, info), time);
    }

    private static String phase(JobInfo info) {
        JobPhase phase = info.phase();
        if (phase == JobPhase.Completed) {
            return "Completed";
        }
        if (phase == JobPhase.Running) {
            return "Running";
        }
        if (phase != null && phase.isFinished() || info.podGroupSpec() == null || info.podGroupPhase() == null) {
            return null;
        }
        return info.podGroupPhase().name();
    }

    /** What the job's running pods request: the queue's allocated resources, as Volcano counts them. */
    private static Map<String, String> allocated(Job job, JobInfo info) {
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        job.spec().tasksOrEmpty().forEach(t -> tasks.put(t.name(), t));
        Resource total = Resource.EMPTY;
        for (JobPod pod : info.pods().values()) {
            TaskSpec task = tasks.get(pod.task());
            if (task != null && pod.phase() == PodPhase.Running && !pod.terminating()) {
                total = total.add(request(task));
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : total.toQuantities().entrySet()) {
            if (total.get(e.getKey()) != 0) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static Resource request(TaskSpec task) {
        Map<String, String> q = new LinkedHashMap<>();
        for (Map.Entry<String, BigDecimal> e : task.pod().effectiveRequests().entrySet()) {
            q.put(e.getKey(), e.getValue().toPlainString());
        }
        try {
            return Resource.parse(q);
        } catch (IllegalArgumentException e) {
            // Admission let the quantity through; one Resource cannot read only leaves it uncounted.
            return Resource.EMPTY;
        }
    }

    /** The same share without its time, to tell whether anything a queue counts changed. */
    public boolean sameAs(QueueShare other) {
        return other != null && queue.equals(other.queue) && job.equals(other.job)
                && java.util.Objects.equals(phase, other.phase) && allocated.equals(other.allocated);
    }
}
