package io.lahar.core.flow;

import io.lahar.core.api.JobFlowPhase;

/**
 * One phase change of a JobFlow with its cause.
 *
 * @param from null for the first transition (the flow is created Pending)
 */
public record FlowTransition(JobFlowPhase from, JobFlowPhase to, String reason, String message, long time) {}
