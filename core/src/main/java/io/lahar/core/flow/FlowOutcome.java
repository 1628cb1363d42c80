package io.lahar.core.flow;

import java.util.List;

/** The result of applying one {@link FlowInput}: the new state, phase changes, the world's work, events. */
public record FlowOutcome(
        FlowInfo state, List<FlowTransition> transitions, List<FlowAction> actions, List<FlowEvent> events) {}
