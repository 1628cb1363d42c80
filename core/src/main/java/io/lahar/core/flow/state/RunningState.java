package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/**
 * Running: jobs are created as their dependencies hold, until every entry is done (Succeed) or a
 * job is Failed or Terminated with no retry left and no branch to handle it (Failed, at once, as
 * the seed's state/running.go decides).
 */
public final class RunningState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        if (Progression.apply(run, input)) {
            Progression.finish(run);
        }
    }
}
