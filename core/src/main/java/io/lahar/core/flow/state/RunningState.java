package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Running: jobs are created as their dependencies hold, until every entry is done (Succeed) or stuck (Failed). */
public final class RunningState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        if (Progression.apply(run, input)) {
            Progression.finish(run);
        }
    }
}
