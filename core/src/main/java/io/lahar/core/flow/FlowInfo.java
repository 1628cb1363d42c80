package io.lahar.core.flow;

import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The state of one JobFlow, all the engine needs between two inputs: the admitted flow, the
 * JobTemplates as last seen, the phase, and one {@link FlowJob} per flow entry, in the flow's
 * order. Plain data (JSON round-trips), bounded by the number of flow entries.
 *
 * @param time the last input's time; {@code lastTransitionTime} of the phase is {@code phaseTime}
 */
public record FlowInfo(
        JobFlow flow,
        Map<String, JobTemplate> templates,
        JobFlowPhase phase,
        long phaseTime,
        Map<String, FlowJob> jobs,
        boolean deleted,
        long time) {

    public FlowInfo {
        templates = templates == null ? Map.of() : templates;
        jobs = jobs == null ? Map.of() : jobs;
    }

    /** No flow yet: only a Submit does something. */
    public static FlowInfo empty() {
        return new FlowInfo(null, Map.of(), null, 0, new LinkedHashMap<>(), false, 0);
    }

    public String name() {
        return flow == null ? null : flow.name();
    }

    /** Volcano's JobFlowStatus for this state. */
    public JobFlow.JobFlowStatus status() {
        return FlowStatuses.of(this);
    }
}
