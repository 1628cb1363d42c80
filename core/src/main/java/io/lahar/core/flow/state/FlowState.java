package io.lahar.core.flow.state;

import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/**
 * Volcano's jobflow state machine (pkg/controllers/jobflow/state): one class per phase, each
 * deciding what an input means in that phase.
 */
public sealed interface FlowState permits PendingState, RunningState, SucceedState, TerminatingState, FailedState {

    void execute(FlowRun run, FlowInput input);

    /** Volcano's NewState factory: the state object for a phase. */
    static FlowState of(JobFlowPhase phase) {
        return switch (phase) {
            case Pending -> new PendingState();
            case Running -> new RunningState();
            case Succeed -> new SucceedState();
            case Terminating -> new TerminatingState();
            case Failed -> new FailedState();
        };
    }
}
