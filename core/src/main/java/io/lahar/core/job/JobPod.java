package io.lahar.core.job;

/**
 * The controller's view of one pod of the job (Volcano's JobInfo.Pods entry): what it last
 * observed, plus whether the engine has asked for its deletion (Volcano marks such pods with
 * the out-of-sync annotation, so their disappearance is not taken for an eviction).
 *
 * @param observed     false until the world first reports the pod (its creation was only asked)
 * @param terminating  the engine asked for its deletion and the world has not confirmed it
 * @param node         the node the world last reported it bound to; null while it was never bound
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
        boolean terminating,
        String node) {

    /** A pod not bound to a node yet. */
    public JobPod(
            String name,
            String task,
            int index,
            int version,
            PodPhase phase,
            Integer exitCode,
            int restartCount,
            boolean observed,
            boolean terminating) {
        this(name, task, index, version, phase, exitCode, restartCount, observed, terminating, null);
    }

    public JobPod withPhase(PodPhase newPhase, Integer newExitCode, int newRestartCount) {
        return withPhase(newPhase, newExitCode, newRestartCount, null);
    }

    /** As the world reports it now; a report without a node (not bound, or not said) keeps the one known. */
    public JobPod withPhase(PodPhase newPhase, Integer newExitCode, int newRestartCount, String newNode) {
        return new JobPod(
                name,
                task,
                index,
                version,
                newPhase,
                newExitCode,
                newRestartCount,
                true,
                terminating,
                newNode != null ? newNode : node);
    }

    public JobPod markTerminating() {
        return new JobPod(name, task, index, version, phase, exitCode, restartCount, observed, true, node);
    }
}
