package io.lahar.core.job;

import io.lahar.core.api.JobStatus;
import java.util.Map;

/**
 * The job status's pod counts as one controller run makes them: by phase and per task for the
 * pods the engine has not asked to delete, and the ones it has (terminating). A sync or kill
 * counts pod by pod as it walks them; elsewhere the counts come from the pod tally. A run that
 * counts nothing keeps the stored per-task counts, read only if asked for.
 */
final class PodCounts {

    private int pending;
    private int running;
    private int succeeded;
    private int failed;
    private int terminating;
    private int unknown;
    private TaskCounts tasks;
    /** The stored status's task counts, read only if the run does not count the pods itself. */
    private Map<String, JobStatus.TaskState> stored;

    /** The counts of {@code status}, none when null. */
    PodCounts(JobStatus status) {
        if (status != null) {
            pending = nz(status.pending());
            running = nz(status.running());
            succeeded = nz(status.succeeded());
            failed = nz(status.failed());
            terminating = nz(status.terminating());
            unknown = nz(status.unknown());
            stored = status.taskStatusCount();
        }
    }

    static int nz(Integer i) {
        return i == null ? 0 : i;
    }

    /** Zero, before a walk over the pods counts them again. */
    void reset() {
        pending = running = succeeded = failed = terminating = unknown = 0;
        tasks = new TaskCounts();
    }

    /** Counts a pod the engine has not asked to delete, by its phase and task. */
    void count(JobPod p) {
        switch (p.phase()) {
            case Pending -> pending++;
            case Running -> running++;
            case Succeeded -> succeeded++;
            case Failed -> failed++;
            case Unknown -> unknown++;
        }
        tasks.add(p.task(), p.phase());
    }

    /** Counts a pod being deleted. */
    void countTerminating() {
        terminating++;
    }

    /** Counts every pod from the tally: the live ones by phase and task, the others terminating. */
    void recount(FrozenPods.Builder pods) {
        PodTally t = pods.tally();
        pending = t.live(PodPhase.Pending);
        running = t.live(PodPhase.Running);
        succeeded = t.live(PodPhase.Succeeded);
        failed = t.live(PodPhase.Failed);
        unknown = t.live(PodPhase.Unknown);
        terminating = t.terminating();
        tasks = t.taskCounts();
        assert matchScan(pods)
                : "pod tally " + pending + "/" + running + "/" + succeeded + "/" + failed + "/" + unknown + "/"
                        + terminating + " differs from the pods " + pods.values();
    }

    /** The counts {@link #recount} took from the tally, against a look at every pod (where assertions are on: the tests). */
    private boolean matchScan(FrozenPods.Builder pods) {
        int[] byPhase = new int[PodPhase.values().length];
        int term = 0;
        TaskCounts scanned = new TaskCounts();
        for (JobPod p : pods.values()) {
            if (p.terminating()) {
                term++;
            } else {
                byPhase[p.phase().ordinal()]++;
                scanned.add(p.task(), p.phase());
            }
        }
        return term == terminating
                && byPhase[PodPhase.Pending.ordinal()] == pending
                && byPhase[PodPhase.Running.ordinal()] == running
                && byPhase[PodPhase.Succeeded.ordinal()] == succeeded
                && byPhase[PodPhase.Failed.ordinal()] == failed
                && byPhase[PodPhase.Unknown.ordinal()] == unknown
                && scanned.toStatus().equals(tasks.toStatus());
    }

    int pending() {
        return pending;
    }

    int running() {
        return running;
    }

    int succeeded() {
        return succeeded;
    }

    int failed() {
        return failed;
    }

    int terminating() {
        return terminating;
    }

    int unknown() {
        return unknown;
    }

    /** The counts per task of this run, or the stored ones until it counts the pods itself (most inputs do). */
    TaskCounts tasks() {
        if (tasks == null) {
            tasks = TaskCounts.of(stored);
        }
        return tasks;
    }
}
