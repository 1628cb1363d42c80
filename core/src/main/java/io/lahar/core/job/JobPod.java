package io.lahar.core.job;

/**
 * The controller's view of one pod of the job (Volcano's JobInfo.Pods entry): what it last
 * observed, plus whether the engine has asked for its deletion (Volcano marks such pods with
 * the out-of-sync annotation, so their disappearance is not taken for an eviction).
 *
 * @param observed     false until the world first reports the pod (its creation was only asked)
 * @param terminating  the engine asked for its deletion and the world has not confirmed it
 */
public record JobPod(
        String name,
        String task,
        int index,
        int version,
        PodPhase phase,
        Integer exitCode,
        int restartCount,
        boolean observed,
        boolean terminating) {

    public JobPod withPhase(PodPhase newPhase, Integer newExitCode, int newRestartCount) {
        return new JobPod(name, task, index, version, newPhase, newExitCode, newRestartCount, true, terminating);
    }

    public JobPod markTerminating() {
        return new JobPod(name, task, index, version, phase, exitCode, restartCount, observed, true);
    }
}
