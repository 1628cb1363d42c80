package io.lahar.streams.rest;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.JobInfo;
import java.time.Instant;
import java.util.Map;

/**
 * One row of {@code GET /api/v1/jobs}: the columns of {@code vcctl job list} plus the queue, so a
 * client can filter and print without the whole job.
 */
public record JobSummary(
        String namespace,
        String name,
        String creationTimestamp,
        String phase,
        String jobType,
        String queue,
        int replicas,
        int minAvailable,
        int pending,
        int running,
        int succeeded,
        int failed,
        int unknown,
        int retryCount)
        implements ListedObject {

    /** vcctl reads the job type from this label and shows "Batch" when it is absent. */
    static final String JOB_TYPE_LABEL = "volcano.sh/job-type";

    /** The row of a stored job; its creation time is the submit time when the manifest carries none. */
    static JobSummary of(JobInfo info) {
        JobSummary row = of(info.job());
        if (row.creationTimestamp() != null || info.createdAt() <= 0) {
            return row;
        }
        return new JobSummary(
                row.namespace(),
                row.name(),
                Instant.ofEpochMilli(info.createdAt()).toString(),
                row.phase(),
                row.jobType(),
                row.queue(),
                row.replicas(),
                row.minAvailable(),
                row.pending(),
                row.running(),
                row.succeeded(),
                row.failed(),
                row.unknown(),
                row.retryCount());
    }

    static JobSummary of(Job job) {
        JobStatus status = job.status();
        Map<String, String> labels = job.metadata().labels();
        String jobType = labels == null || labels.get(JOB_TYPE_LABEL) == null ? "Batch" : labels.get(JOB_TYPE_LABEL);
        int replicas = job.spec().tasksOrEmpty().stream()
                .map(TaskSpec::replicas)
                .mapToInt(r -> r == null ? 0 : r)
                .sum();
        String phase =
                status == null || status.state() == null || status.state().phase() == null
                        ? ""
                        : status.state().phase().name();
        return new JobSummary(
                job.metadata().namespace(),
                job.metadata().name(),
                job.metadata().creationTimestamp(),
                phase,
                jobType,
                job.spec().queue(),
                replicas,
                status == null ? orZero(job.spec().minAvailable()) : orZero(status.minAvailable()),
                status == null ? 0 : orZero(status.pending()),
                status == null ? 0 : orZero(status.running()),
                status == null ? 0 : orZero(status.succeeded()),
                status == null ? 0 : orZero(status.failed()),
                status == null ? 0 : orZero(status.unknown()),
                status == null ? 0 : orZero(status.retryCount()));
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
