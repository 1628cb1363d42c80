package io.lahar.console.view;

import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.TaskSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the console reads from a job's admitted manifest (on {@code lahar.job-status}): its tasks
 * with their replicas and each pod's requests (for the nodes' allocated resources), maxRetry, the
 * JobFlow that created it. An unreadable manifest gives no facts, never an error.
 */
public record JobSpecFacts(List<Task> tasks, int replicas, Integer maxRetry, String flow) {

    static final JobSpecFacts NONE = new JobSpecFacts(List.of(), 0, null, null);
    static final String CREATED_BY_FLOW = "volcano.sh/createdByJobFlow";

    /** One task: its pods' count and the requests of one pod (Kubernetes' effective requests). */
    public record Task(String name, int replicas, Map<String, BigDecimal> requests) {}

    static JobSpecFacts of(String manifest) {
        try {
            Job job = Manifests.read(manifest, Job.class);
            List<Task> tasks = new ArrayList<>();
            int replicas = 0;
            for (TaskSpec t :
                    job.spec() == null ? List.<TaskSpec>of() : job.spec().tasksOrEmpty()) {
                tasks.add(new Task(
                        t.name(), t.replicasOrZero(), Map.copyOf(t.pod().effectiveRequests())));
                replicas += t.replicasOrZero();
            }
            Map<String, String> annotations =
                    job.metadata() == null ? null : job.metadata().annotations();
            String flow = annotations == null ? null : annotations.get(CREATED_BY_FLOW);
            return new JobSpecFacts(
                    List.copyOf(tasks),
                    replicas,
                    job.spec() == null ? null : job.spec().maxRetry(),
                    flow);
        } catch (RuntimeException e) {
            return NONE;
        }
    }

    Map<String, BigDecimal> requestsOf(String task) {
        for (Task t : tasks) {
            if (t.name().equals(task)) {
                return t.requests();
            }
        }
        return Map.of();
    }
}
