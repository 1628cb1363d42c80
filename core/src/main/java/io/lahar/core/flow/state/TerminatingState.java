package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Terminating: the flow is deleted and its jobs with it. Every later input is a late echo and changes nothing. */
public final class TerminatingState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        // Deleted flows do not come back: a late job status or tick must not re-create anything.
    }
}
