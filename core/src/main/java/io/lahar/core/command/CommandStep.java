package io.lahar.core.command;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.Violation;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobInfo;
import java.util.List;

/**
 * One job command as the lifecycle takes it: the command gate's decision ({@link JobCommands}),
 * then, for an action, the action gate ({@link ActionGate}). One implementation for the streams
 * app's command input and {@code lahar replay}, so replay answers and applies what the engine did.
 *
 * @param verdict  the answer to the sender (an action the job's phase has no use for is rejected here)
 * @param input    what the job engine runs next; null when nothing
 * @param recent   the job's recent verdicts after the command; null when they stay as they were — a
 *                 retry answered from them, or a rejection about a job that never existed (which
 *                 leaves no trace)
 * @param replayed the command was a retry, answered with its first verdict and applied to nothing
 */
public record CommandStep(JobVerdict verdict, Input input, List<JobVerdict> recent, boolean replayed) {

    /**
     * @param job    the job's state (empty when the key has never been submitted)
     * @param recent the job's recent verdicts
     */
    public static CommandStep of(JobInfo job, List<JobVerdict> recent, JobRequest request, AdmissionContext context) {
        JobRecord gate = JobRecord.of(job, recent);
        JobCommands.Decision decision = JobCommands.decide(gate, request, context);
        JobVerdict verdict = decision.verdict();
        Input input = switch (decision.effect()) {
            case SUBMITTED -> new Input.Submit(decision.next().job(), request.time());
            case UPDATED -> new Input.Update(decision.next().job(), request.time());
            case DELETED -> new Input.Delete(request.time());
            case ACTION -> {
                JobRequest.Act act = (JobRequest.Act) request.body();
                List<Violation> refused = ActionGate.check(job, act);
                if (!refused.isEmpty()) {
                    verdict = new JobVerdict(request.requestId(), request.kind(), false, refused, null, request.time());
                    yield null;
                }
                yield new Input.Command(act.action(), act.task(), act.pod(), act.message(), request.time());
            }
            case NONE, REPLAYED -> null;
        };
        if (decision.effect() == JobCommands.Effect.REPLAYED) {
            return new CommandStep(verdict, null, null, true);
        }
        // A rejection about an existing job is remembered, so its retry is answered alike; one
        // about a job that never existed leaves no trace.
        boolean keep = input != null || decision.next() != null || job.submitted();
        return new CommandStep(verdict, input, keep ? gate.recentWith(verdict) : null, false);
    }
}
