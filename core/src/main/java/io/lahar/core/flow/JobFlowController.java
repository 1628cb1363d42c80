package io.lahar.core.flow;

import io.lahar.core.flow.state.FlowState;

/**
 * Volcano's jobflow controller as a pure function: {@code apply(state, input)} gives the new
 * state, the phase transitions, the jobs to create or delete and the events. No clock, no I/O:
 * the same inputs give the same outcome.
 */
public final class JobFlowController {

    public FlowOutcome apply(FlowInfo state, FlowInput input) {
        FlowRun run = new FlowRun(state == null ? FlowInfo.empty() : state, input.time());
        if (run.phase() == null) {
            // Before its Submit a flow does not exist: a job status or tick for it is an orphan.
            if (input instanceof FlowInput.Submit s) {
                run.submit(s);
                FlowState.of(run.phase()).execute(run, s);
            }
            return run.outcome();
        }
        FlowState.of(run.phase()).execute(run, input);
        return run.outcome();
    }
}
