package io.lahar.core.api;

import java.util.List;
import java.util.Map;

/** Volcano's JobStatus: the phase and the pod counts the controller maintains. */
public record JobStatus(
        JobState state,
        Integer minAvailable,
        Map<String, TaskState> taskStatusCount,
        Integer pending,
        Integer running,
        Integer succeeded,
        Integer failed,
        Integer terminating,
        Integer unknown,
        Integer version,
        Integer retryCount,
        String runningDuration,
        Map<String, String> controlledResources,
        List<JobCondition> conditions) {

    /** Pod counts per pod phase of one task. */
    public record TaskState(Map<String, Integer> phase) {}

    /** One entry of the job's phase history. */
    public record JobCondition(JobPhase status, String lastTransitionTime) {}
}
