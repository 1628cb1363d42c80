package io.lahar.core.flow;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow.JobRunningHistory;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

    /** The entry's dependencies can never hold: it will not run. */
    FlowJob skipped() {
        Draft d = new Draft(this);
        d.state = EntryState.Skipped;
        d.phase = null;
        return d.done();
    }

    /** The job could not be created (no template, a patch that does not apply); the entry waits. */
    FlowJob block() {
        Draft d = new Draft(this);
        d.blocked = true;
        d.message = null;
        return d.done();
    }

    /** The entry's first job is created now, from {@code created}. */
    FlowJob created(Job created, long time) {
        return incarnation(created, 0, List.of(), time);
    }

    /** The entry's job is created again, from the same manifest, once its retry backoff ended. */
    FlowJob recreated(long time) {
        return incarnation(job, retries, runningHistories, time);
    }

    /** A new job of this entry, Pending, with nothing observed of it yet. */
    private FlowJob incarnation(Job created, int retriesDone, List<JobRunningHistory> histories, long time) {
        Draft d = new Draft(this);
        d.state = EntryState.Created;
        d.phase = null;
        d.job = created;
        d.exists = true;
        d.createdAt = time;
        d.endedAt = null;
        d.retries = retriesDone;
        d.jobRetryCount = 0;
        d.retryAt = null;
        d.taskStatusCount = Map.of();
        d.reachedTaskPhases = List.of();
        d.runningHistories = FlowJobs.append(histories, JobPhase.Pending, time);
        d.blocked = false;
        d.message = null;
        return d.done();
    }

    /**
     * The job's reported status folded in: its phase, pods, own retryCount and every {@code
     * task/phase} its pods ever reached. An end keeps the time it was first seen at.
     */
    FlowJob observed(FlowInput.JobStatusObserved o, long time) {
        Set<String> reached = new TreeSet<>(reachedTaskPhases);
        o.taskStatusCount().forEach((task, counts) -> {
            if (counts != null && counts.phase() != null) {
                counts.phase().forEach((p, n) -> {
                    if (n != null && n > 0) {
                        reached.add(task + "/" + p);
                    }
                });
            }
        });
        Draft d = new Draft(this);
        d.state = EntryState.Created;
        d.phase = o.phase();
        d.exists = true;
        d.endedAt = FlowJobs.ENDED.contains(o.phase())
                ? Long.valueOf(endedAt != null && phase == o.phase() ? endedAt : time)
                : null;
        d.jobRetryCount = o.retryCount();
        d.retryAt = null;
        d.taskStatusCount = Map.copyOf(o.taskStatusCount());
        d.reachedTaskPhases = List.copyOf(reached);
        d.runningHistories = FlowJobs.append(runningHistories, o.phase(), time);
        d.blocked = false;
        d.message = null;
        return d.done();
    }

    /** Job admission refused the job: it was never created and counts as Failed, for {@code message}. */
    FlowJob rejected(String why, long time) {
        Draft d = new Draft(this);
        d.state = EntryState.Created;
        d.phase = JobPhase.Failed;
        d.exists = false;
        d.endedAt = time;
        d.jobRetryCount = 0;
        d.retryAt = null;
        d.taskStatusCount = Map.of();
        d.runningHistories = FlowJobs.close(FlowJobs.append(runningHistories, JobPhase.Failed, time), time);
        d.blocked = false;
        d.message = why;
        return d.done();
    }

    /** The failed job is gone and the entry waits until {@code until} to create it again. */
    FlowJob backoff(long until, long time) {
        Draft d = new Draft(this);
        d.state = EntryState.Backoff;
        d.exists = false;
        d.retries = retries + 1;
        d.retryAt = until;
        d.runningHistories = FlowJobs.close(runningHistories, time);
        d.blocked = false;
        return d.done();
    }

    /** The job is deleted: its open history entry ends now. */
    FlowJob deleted(long time) {
        Draft d = new Draft(this);
        d.exists = false;
        d.runningHistories = FlowJobs.close(runningHistories, time);
        return d.done();
    }

    /** A pending retry dropped: the flow is deleted, so its job is not created again. */
    FlowJob retryDropped() {
        Draft d = new Draft(this);
        d.exists = false;
        d.retryAt = null;
        return d.done();
    }

    /**
     * A changing copy of an entry: records have no withers, and each transition above changes a
     * few of the sixteen fields, so each names only those and this class copies the rest.
     */
    private static final class Draft {
        private final String entry;
        private final String name;
        private EntryState state;
        private JobPhase phase;
        private Job job;
        private boolean exists;
        private Long createdAt;
        private Long endedAt;
        private int retries;
        private int jobRetryCount;
        private Long retryAt;
        private Map<String, JobStatus.TaskState> taskStatusCount;
        private List<String> reachedTaskPhases;
        private List<JobRunningHistory> runningHistories;
        private boolean blocked;
        private String message;

        Draft(FlowJob j) {
            entry = j.entry;
            name = j.name;
            state = j.state;
            phase = j.phase;
            job = j.job;
            exists = j.exists;
            createdAt = j.createdAt;
            endedAt = j.endedAt;
            retries = j.retries;
            jobRetryCount = j.jobRetryCount;
            retryAt = j.retryAt;
            taskStatusCount = j.taskStatusCount;
            reachedTaskPhases = j.reachedTaskPhases;
            runningHistories = j.runningHistories;
            blocked = j.blocked;
            message = j.message;
        }

        FlowJob done() {
            return new FlowJob(
                    entry,
                    name,
                    state,
                    phase,
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
}
