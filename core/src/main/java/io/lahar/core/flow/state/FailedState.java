package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Failed: a job failed and nothing can follow it. Final; the failed jobs are kept for inspection. */
public final class FailedState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        Finished.apply(run, input);
    }
}
