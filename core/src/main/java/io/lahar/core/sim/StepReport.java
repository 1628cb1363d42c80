package io.lahar.core.sim;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * One output line of {@code lahar simulate}: the job's status after a step, every phase it
 * entered during the step, and its pods of the current version by {@code <task>-<index>}.
 * {@code deleted} appears once the job is gone, {@code rejected} when an update was refused,
 * {@code ignored} when the step could not happen (a pod that does not exist any more).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "step",
    "phase",
    "version",
    "retryCount",
    "pending",
    "running",
    "succeeded",
    "failed",
    "terminating",
    "unknown",
    "reason",
    "message",
    "transitions",
    "pods",
    "deleted",
    "rejected",
    "ignored"
})
public record StepReport(
        int step,
        String phase,
        int version,
        int retryCount,
        int pending,
        int running,
        int succeeded,
        int failed,
        int terminating,
        int unknown,
        String reason,
        String message,
        List<String> transitions,
        Map<String, String> pods,
        Boolean deleted,
        List<String> rejected,
        String ignored) {}
