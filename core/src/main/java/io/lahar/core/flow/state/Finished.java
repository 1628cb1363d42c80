package io.lahar.core.flow.state;

import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/**
 * What Succeed and Failed share: the phase is final. Nothing is created or retried any more;
 * jobs still running are followed in the status, and deleting the flow deletes what is left.
 */
final class Finished {

    private Finished() {}

    static void apply(FlowRun run, FlowInput input) {
        switch (input) {
            case FlowInput.Delete d -> run.terminate();
            case FlowInput.JobStatusObserved o -> run.observe(o, false);
            case FlowInput.JobRejected r -> run.reject(r, false);
            case FlowInput.TemplateChanged c -> run.changeTemplate(c);
            case FlowInput.Tick t -> {}
            case FlowInput.Submit s -> {}
        }
    }
}
