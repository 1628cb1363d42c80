package io.lahar.core.command;

import io.lahar.core.admission.Violation;
import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a user action can do anything in the job's phase. Volcano's controller takes every
 * command and, where the phase has no use for it, quietly re-syncs; the engine here does the same
 * ({@link io.lahar.core.job.JobController} reports no refusal). A sender deserves better than an
 * "accepted" that changes nothing, so such a command is answered rejected, with the reason, and
 * never reaches the engine: a finished job's phase is final, ResumeJob only resumes an aborted
 * job, an Aborted job only resumes, and RestartTask/RestartPod must name a task/pod of the job.
 * Its message, which the job's status and transition keep, must fit {@link #MAX_MESSAGE}.
 */
public final class ActionGate {

    private static final Set<JobPhase> RESUMABLE = EnumSet.of(JobPhase.Aborting, JobPhase.Aborted);
    /** A command's message becomes the transition's and the job status's: bounded, as every user text kept. */
    static final int MAX_MESSAGE = 1024;

    private ActionGate() {}

    /** Every reason the action cannot apply to the job as it is; empty when it can. */
    public static List<Violation> check(JobInfo info, JobRequest.Act act) {
        JobPhase phase = info.phase();
        Action action = act.action();
        if (act.message() != null && act.message().length() > MAX_MESSAGE) {
            return List.of(new Violation(
                    "command.message",
                    "at most " + MAX_MESSAGE + " characters, was "
                            + act.message().length()));
        }
        if (phase != null && phase.isFinished()) {
            return List.of(new Violation(
                    "command.action", "job is " + phase + ", a final phase: " + action + " cannot change it"));
        }
        if (action == Action.RESUME_JOB && !RESUMABLE.contains(phase)) {
            return List.of(new Violation("command.action", "ResumeJob resumes an aborted job; the job is " + phase));
        }
        if (phase == JobPhase.Aborted && action != Action.RESUME_JOB) {
            return List.of(new Violation("command.action", "job is Aborted: only ResumeJob applies, not " + action));
        }
        if (action == Action.RESTART_TASK) {
            if (act.task() == null || act.task().isEmpty()) {
                return List.of(new Violation("command.task", "RestartTask needs the name of the task to restart"));
            }
            if (task(info, act.task()) == null) {
                return List.of(new Violation("command.task", "the job has no task \"" + act.task() + "\""));
            }
        }
        if (action == Action.RESTART_PARTITION) {
            JobPod pod = act.pod() == null ? null : info.pods().get(act.pod());
            if (pod == null) {
                return List.of(new Violation(
                        "command.pod", "RestartPartition needs a pod of the job now, in the partition to restart"));
            }
            TaskSpec task = task(info, pod.task());
            if (task == null || task.partitionPolicy() == null) {
                return List.of(
                        new Violation("command.pod", "the task of pod \"" + act.pod() + "\" has no partitionPolicy"));
            }
        }
        if (action == Action.RESTART_POD) {
            if (act.pod() == null || act.pod().isEmpty()) {
                return List.of(new Violation("command.pod", "RestartPod needs the name of the pod to restart"));
            }
            if (!info.pods().containsKey(act.pod())) {
                return List.of(new Violation("command.pod", "the job has no pod \"" + act.pod() + "\" now"));
            }
        }
        return List.of();
    }

    private static TaskSpec task(JobInfo info, String name) {
        for (TaskSpec t : info.job().spec().tasksOrEmpty()) {
            if (name.equals(t.name())) {
                return t;
            }
        }
        return null;
    }
}
