package io.lahar.core.job;

import io.lahar.core.api.JobPhase;

/**
 * One phase change of a job, with what caused it: the event, the action taken, the policy that
 * chose the action ({@code spec.policies[0]}, {@code spec.tasks[1].policies[0]}, or null when no
 * policy was involved), and reason and message a person can act on.
 *
 * @param from null for the first transition (the job is created Pending)
 */
public record Transition(
        JobPhase from,
        JobPhase to,
        String event,
        String action,
        String policy,
        String reason,
        String message,
        long time) {}
