package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Failed: a job was Failed or Terminated. Final: nothing more is created; the jobs are kept for inspection. */
public final class FailedState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        Finished.apply(run, input);
    }
}
