package io.lahar.core.flow;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.lahar.core.api.JobFlow;
import java.util.List;
import java.util.Map;

/**
 * One output line of {@code lahar simulate} for a flow: the flow's phase, the jobs that exist
 * now (in flow order) with their phases, the jobs deleted during the step, the whole status with
 * Volcano's field names, the phase changes and events of the step, and {@code ignored} when the
 * step could not happen (a job that does not exist).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"step", "phase", "created", "jobs", "deleted", "status", "transitions", "events", "ignored"})
public record FlowStepReport(
        int step,
        String phase,
        List<String> created,
        Map<String, String> jobs,
        List<String> deleted,
        JobFlow.JobFlowStatus status,
        List<String> transitions,
        List<String> events,
        String ignored) {}
