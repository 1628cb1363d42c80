package io.lahar.core.command;

import io.lahar.core.api.Job;
import io.lahar.core.job.JobInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * What the command gate keeps about one Job key: the admitted Job (null once deleted) and the
 * verdicts of its most recent requests, so retries are answered, not re-applied. The history is
 * bounded so a job's record stays far below the broker's record size limit.
 */
public record JobRecord(Job job, List<JobVerdict> recent) {

    /** How many past verdicts are remembered per job. */
    public static final int RECENT_LIMIT = 32;

    public JobRecord {
        recent = recent == null ? List.of() : List.copyOf(recent);
    }

    /** The gate's record of a job: the job while it is live (null before its submission and once deleted). */
    public static JobRecord of(JobInfo job, List<JobVerdict> recent) {
        return new JobRecord(job.live() ? job.job() : null, recent);
    }

    public boolean exists() {
        return job != null;
    }

    JobVerdict verdictFor(String requestId) {
        for (JobVerdict v : recent) {
            if (v.requestId().equals(requestId)) {
                return v;
            }
        }
        return null;
    }

    JobRecord with(Job newJob, JobVerdict verdict) {
        return new JobRecord(newJob, recentWith(verdict));
    }

    /** The recent verdicts with {@code verdict} added, the oldest forgotten past {@link #RECENT_LIMIT}. */
    public List<JobVerdict> recentWith(JobVerdict verdict) {
        List<JobVerdict> next = new ArrayList<>(recent.size() + 1);
        next.addAll(recent);
        next.add(verdict);
        return next.size() > RECENT_LIMIT ? List.copyOf(next.subList(next.size() - RECENT_LIMIT, next.size())) : next;
    }
}
