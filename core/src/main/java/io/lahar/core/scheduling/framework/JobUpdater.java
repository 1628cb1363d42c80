package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SessionResult.PodGroupCondition;

/**
 * What a closing session tells each pod group, as Volcano's framework/job_updater.go with the
 * session's jobStatus: the phase its tasks now put it in, and the condition that says why it
 * waits or that it is scheduled.
 */
final class JobUpdater {

    private JobUpdater() {}

    /**
     * Volcano's jobStatus, recomputed every session: Unknown when some tasks run but the gang is not
     * whole; Running once minMember tasks hold a node or finished (succeeded or failed), Completed
     * when those tasks are all finished; otherwise Inqueue stays Inqueue and anything else is
     * Pending. Completed is not final: a task created again (RestartTask, a scale up) makes the group
     * Running or Pending at the next session.
     */
    static PodGroupPhase phase(SessionJob j) {
        PodGroupPhase p = j.phase();
        if (!j.problems().isEmpty()) return p;
        boolean hasRunning = false;
        for (SessionTask t : j.tasks()) {
            if (t.status() == TaskStatus.Running) {
                hasRunning = true;
                break;
            }
        }
        if (hasRunning && !j.isReady()) return PodGroupPhase.Unknown;
        int allocated = j.holdingTaskNum() + j.finishedTaskNum();
        if (allocated >= j.info().minMember()) {
            return j.holdingTaskNum() == 0 ? PodGroupPhase.Completed : PodGroupPhase.Running;
        }
        return p == PodGroupPhase.Inqueue ? PodGroupPhase.Inqueue : PodGroupPhase.Pending;
    }

    /** The pod group's condition for its new phase: why it waits, or that its gang is scheduled. */
    static PodGroupCondition condition(SessionJob j, PodGroupPhase phase) {
        if (!j.problems().isEmpty()) {
            return new PodGroupCondition(
                    PodGroupCondition.UNSCHEDULABLE, "True", "InvalidPodGroup", UnschedulableMessage.of(j));
        }
        if (phase == PodGroupPhase.Completed) return null;
        if (j.isReady() && (j.readyTaskNum() > 0 || j.tasks().isEmpty())) {
            // Volcano's Scheduled condition; tasks beyond the gang that are still pending do not make it pending.
            return new PodGroupCondition(
                    PodGroupCondition.SCHEDULED, "True", "tasks in gang are ready to be scheduled", "");
        }
        if (j.tasks().isEmpty()
                && (phase != PodGroupPhase.Pending || j.reasons().isEmpty())) {
            // Volcano's gang skips a group without pods: it waits for its job controller to create
            // them (or for enqueue to consider it), not for resources; the job's status says so.
            return null;
        }
        // Without pods, only a refused enqueue explains the wait, and what it refused is resources.
        String reason = !j.isValid() && !j.tasks().isEmpty() ? "NotEnoughTasks" : "NotEnoughResources";
        return new PodGroupCondition(PodGroupCondition.UNSCHEDULABLE, "True", reason, UnschedulableMessage.of(j));
    }
}
