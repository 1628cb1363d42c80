package io.lahar.core.command;

import io.lahar.core.api.Job;

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
        List<JobVerdict> next = new ArrayList<>(recent.size() + 1);
        next.addAll(recent);
        next.add(verdict);
        if (next.size() > RECENT_LIMIT) {
            next = next.subList(next.size() - RECENT_LIMIT, next.size());
        }
        return new JobRecord(newJob, next);
    }
}
