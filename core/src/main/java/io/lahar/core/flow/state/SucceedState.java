package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Succeed: every job completed. Final; with jobRetainPolicy delete the jobs are already gone. */
public final class SucceedState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        Finished.apply(run, input);
    }
}
