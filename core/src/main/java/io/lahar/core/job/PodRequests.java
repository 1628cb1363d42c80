package io.lahar.core.job;

import io.lahar.core.api.Event;
import io.lahar.core.api.JobSpec;

/**
 * What a pod's news means for its job (Volcano's job_controller_handler: addPod, updatePod,
 * deletePod): the request the controller then processes. A pure function of the pod before and
 * after, the spec and the pod tally.
 */
final class PodRequests {

    private PodRequests() {}

    /**
     * The pod is gone. If the engine had asked for that (it was terminating), it is only news to
     * sync on (Volcano's out-of-sync mark); otherwise someone else deleted it: an eviction.
     */
    static Request deleted(JobPod gone) {
        if (gone.terminating()) {
            return Request.pod(Event.OUT_OF_SYNC, gone, null);
        }
        return Request.pod(
                Event.POD_EVICTED, gone, "pod " + gone.name() + " was deleted by someone else while " + gone.phase());
    }

    /**
     * The pod is reported as {@code now} (its phase, exit code and restarts as observed).
     * PodFailed, TaskCompleted, PodRunning and PodPending are raised when the pod enters that phase,
     * or on its first report; TaskFailed whenever the task's restarts exceed its maxRetry; anything
     * else is OutOfSync.
     *
     * @param before the pod as known before, null when the engine did not know it
     * @param tally  the job's pod counts, {@code now} already counted
     */
    static Request observed(JobPod before, JobPod now, JobSpec spec, PodTally tally) {
        boolean seen = before != null && before.observed();
        PodPhase was = before == null ? null : before.phase();
        boolean entered = was != now.phase() || !seen;
        String task = now.task();
        return switch (now.phase()) {
            case Failed ->
                entered
                        ? Request.podFailed(
                                now,
                                now.exitCode(),
                                "pod " + now.name()
                                        + (now.exitCode() == null ? " failed" : " exited " + now.exitCode()))
                        : Request.pod(Event.OUT_OF_SYNC, now, null);
            case Succeeded ->
                entered && TaskChecks.completed(spec, tally, task)
                        ? Request.pod(
                                Event.TASK_COMPLETED,
                                now,
                                "task " + task + " completed: all " + TaskChecks.replicas(spec, task)
                                        + " pod(s) succeeded")
                        : Request.pod(Event.OUT_OF_SYNC, now, null);
            case Pending, Running -> {
                if (TaskChecks.failed(spec, tally, task)) {
                    yield Request.pod(
                            Event.TASK_FAILED,
                            now,
                            "task " + task + " containers restarted " + tally.restarts(task)
                                    + " times, over its maxRetry " + TaskChecks.maxRetry(spec, task));
                }
                if (!entered) {
                    yield Request.pod(Event.OUT_OF_SYNC, now, null);
                }
                yield now.phase() == PodPhase.Running
                        ? Request.pod(Event.POD_RUNNING, now, null)
                        : Request.pod(Event.POD_PENDING, now, "pod " + now.name() + " is Pending");
            }
            case Unknown -> Request.pod(Event.OUT_OF_SYNC, now, null);
        };
    }
}
