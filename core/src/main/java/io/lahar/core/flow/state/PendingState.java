package io.lahar.core.flow.state;

import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** Pending: jobs are created, none has left Pending yet. Moves to Running once one runs or finishes. */
public final class PendingState implements FlowState {

    @Override
    public void execute(FlowRun run, FlowInput input) {
        if (!Progression.apply(run, input) || Progression.finish(run)) {
            return;
        }
        if (run.started()) {
            run.moveTo(JobFlowPhase.Running, "Running", "a job of the flow left Pending");
        }
    }
}
