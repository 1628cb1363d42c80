package io.lahar.core.flow.state;

import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.flow.FlowInput;
import io.lahar.core.flow.FlowRun;

/** What Pending and Running share: sync the flow on every input, then finish it when nothing is left to do. */
final class Progression {

    private Progression() {}

    /** Applies an input to an unfinished flow; returns false when the flow was deleted. */
    static boolean apply(FlowRun run, FlowInput input) {
        switch (input) {
            case FlowInput.Delete d -> {
                run.terminate();
                return false;
            }
            case FlowInput.JobStatusObserved o -> run.observe(o, true);
            case FlowInput.JobRejected r -> run.reject(r, true);
            case FlowInput.TemplateChanged c -> run.changeTemplate(c);
            case FlowInput.Tick t -> {}
            case FlowInput.Submit s -> {}
        }
        run.sync();
        return true;
    }

    /** Succeed or Failed once nothing more can happen; Succeed deletes the jobs under jobRetainPolicy delete. */
    static boolean finish(FlowRun run) {
        switch (run.progress()) {
            case SUCCEEDED -> {
                run.moveTo(JobFlowPhase.Succeed, "Succeed", "every job of the flow completed");
                if (!run.retainsJobs()) {
                    run.deleteJobs("JobRetainPolicy");
                }
                return true;
            }
            case FAILED -> {
                run.moveTo(
                        JobFlowPhase.Failed,
                        "Failed",
                        "the flow can not go on: " + String.join(", ", run.unhandledFailures()));
                return true;
            }
            default -> {
                return false;
            }
        }
    }
}
