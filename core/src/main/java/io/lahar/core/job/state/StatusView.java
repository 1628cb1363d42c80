package io.lahar.core.job.state;

import io.lahar.core.api.JobPhase;
import java.util.List;

/**
 * The job status a {@link StatusUpdater} reads and changes: the pod counts just computed, the
 * spec numbers the phase rules need, and {@link #moveTo}, which accepts only the phases the
 * current state may lead to.
 */
public interface StatusView {

    JobPhase phase();

    int pending();

    int running();

    int succeeded();

    int failed();

    int terminating();

    int unknown();

    int retryCount();

    /** Counts one more restart against maxRetry. */
    void incrementRetry();

    /** status.minAvailable: the gang size in force. */
    int minAvailable();

    /** spec.minAvailable. */
    int specMinAvailable();

    /** spec.minSuccess, null when not given. */
    Integer minSuccess();

    /** spec.maxRetry (Volcano's default 3 when not given). */
    int maxRetry();

    /** Sum of the tasks' replicas. */
    int totalReplicas();

    /** Sum of the tasks' minAvailable (a task without one counts its replicas). */
    int totalTaskMinAvailable();

    /** Per task: its minAvailable as given (null when not given) and how many of its pods succeeded. */
    List<TaskCount> tasks();

    /**
     * Moves the job to {@code phase}.
     *
     * @param reason one CamelCase word for status.state.reason, or null to use the event's
     * @param detail what made the rule fire, in words, or null when the action says it all
     * @throws IllegalStateException when the current state may not lead to {@code phase}
     */
    void moveTo(JobPhase phase, String reason, String detail);

    /** One task's numbers for the completion rules. */
    record TaskCount(String name, Integer minAvailable, int succeeded) {}
}
