package io.lahar.core.flow;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow.JobRunningHistory;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import java.util.List;
import java.util.Map;

/**
 * One flow entry and the job it made: the job's last observed phase, the manifest created (kept so
 * a retry re-creates the same job even when the template changed since), its run history.
 *
 * @param entry             the flow entry (= JobTemplate) name
 * @param name              the job's name, {@code <flow>-<template>}
 * @param phase             the job's last observed phase; Pending until the world reports one
 * @param job               the manifest created, null until then
 * @param exists            whether the job exists in the world now (false after a delete)
 * @param createdAt         creation time of the current incarnation (epoch ms)
 * @param endedAt           when the job reached Completed, Failed or Terminated
 * @param retries           re-creations done by the flow's {@code retry}
 * @param jobRetryCount     the job's own retryCount, as last observed
 * @param retryAt           when the backoff ends and the job is re-created
 * @param reachedTaskPhases {@code task/phase} pairs observed so far, for taskStatus probes
 * @param runningHistories  phase history, at most {@link #MAX_HISTORIES} entries (the newest)
 * @param blocked           the job could not be created (template missing, patch not applicable), reason reported
 * @param message           why job admission rejected the job's creation (every reason), null when it did not
 */
public record FlowJob(
        String entry,
        String name,
        EntryState state,
        JobPhase phase,
        Job job,
        boolean exists,
        Long createdAt,
        Long endedAt,
        int retries,
        int jobRetryCount,
        Long retryAt,
        Map<String, JobStatus.TaskState> taskStatusCount,
        List<String> reachedTaskPhases,
        List<JobRunningHistory> runningHistories,
        boolean blocked,
        String message) {

    /** Bound on a job's history: the flow's state must stay well under a Kafka record's size. */
    public static final int MAX_HISTORIES = 16;

    public FlowJob {
        taskStatusCount = taskStatusCount == null ? Map.of() : taskStatusCount;
        reachedTaskPhases = reachedTaskPhases == null ? List.of() : reachedTaskPhases;
        runningHistories = runningHistories == null ? List.of() : runningHistories;
    }

    public static FlowJob waiting(String entry, String name) {
        return new FlowJob(
                entry,
                name,
                EntryState.Waiting,
                null,
                null,
                false,
                null,
                null,
                0,
                0,
                null,
                Map.of(),
                List.of(),
                List.of(),
                false,
                null);
    }

    /** The job's phase as Volcano would list it: a created job not observed yet is Pending. */
    public JobPhase phaseOrPending() {
        return phase == null ? JobPhase.Pending : phase;
    }

    /** The job ran to an end nothing will undo: created, and Completed, Failed or Terminated. */
    public boolean ended() {
        return state == EntryState.Created && phase != null && FlowJobs.ENDED.contains(phase);
    }

    /** The job ended otherwise than Completed: Failed or Terminated. */
    public boolean endedUnsuccessfully() {
        return ended() && phase != JobPhase.Completed;
    }

    FlowJob with(EntryState s, JobPhase p) {
        return new FlowJob(
                entry,
                name,
                s,
                p,
                job,
                exists,
                createdAt,
                endedAt,
                retries,
                jobRetryCount,
                retryAt,
                taskStatusCount,
                reachedTaskPhases,
                runningHistories,
                blocked,
                message);
    }
}
