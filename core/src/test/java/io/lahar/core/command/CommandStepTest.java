package io.lahar.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Action;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandStepTest {

    private static final AdmissionContext FRESH = AdmissionContext.freshInstall();
    private static final String MANIFEST = JobCommandsTest.job("j", 2);

    private static JobRequest request(String id, JobRequest.Body body) {
        return new JobRequest(id, "test", "default", "j", 1_000L, body);
    }

    private static JobRequest act(String id, Action action) {
        return request(id, new JobRequest.Act(action, null, null, null));
    }

    /** The job after its submission went through the engine. */
    private static JobInfo submitted(CommandStep step) {
        return new JobController().apply(JobInfo.empty(), step.input()).state();
    }

    @Test
    void anAcceptedSubmitEntersTheEngineAndIsRemembered() {
        CommandStep step =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        assertThat(step.verdict().accepted()).isTrue();
        assertThat(step.input()).isInstanceOf(Input.Submit.class);
        assertThat(step.recent()).containsExactly(step.verdict());
        assertThat(step.replayed()).isFalse();
    }

    @Test
    void aRetryIsAnsweredWithItsFirstVerdictAndAppliesNothing() {
        CommandStep first =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        CommandStep retry =
                CommandStep.of(submitted(first), first.recent(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        assertThat(retry.replayed()).isTrue();
        assertThat(retry.verdict()).isEqualTo(first.verdict());
        assertThat(retry.input()).isNull();
        assertThat(retry.recent()).isNull();
    }

    @Test
    void aRejectionAboutAJobThatNeverExistedLeavesNoTraceOneAboutAnExistingJobIsRemembered() {
        CommandStep none = CommandStep.of(JobInfo.empty(), List.of(), act("r1", Action.ABORT_JOB), FRESH);
        assertThat(none.verdict().accepted()).isFalse();
        assertThat(none.recent()).isNull();
        assertThat(none.replayed()).isFalse();

        CommandStep first =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        CommandStep again =
                CommandStep.of(submitted(first), first.recent(), request("r2", new JobRequest.Submit(MANIFEST)), FRESH);
        assertThat(again.verdict().accepted()).isFalse();
        assertThat(again.input()).isNull();
        assertThat(again.recent()).containsExactly(first.verdict(), again.verdict());
    }

    @Test
    void anActionThePhaseHasNoUseForIsRejectedByTheActionGateAndNeverReachesTheEngine() {
        CommandStep first =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        JobInfo pending = submitted(first);
        CommandStep resume = CommandStep.of(pending, first.recent(), act("r2", Action.RESUME_JOB), FRESH);
        assertThat(resume.verdict().accepted()).isFalse();
        assertThat(resume.verdict().violations())
                .extracting(Object::toString)
                .containsExactly("command.action: ResumeJob resumes an aborted job; the job is Pending");
        assertThat(resume.input()).isNull();
        assertThat(resume.recent()).containsExactly(first.verdict(), resume.verdict());

        CommandStep abort = CommandStep.of(pending, first.recent(), act("r3", Action.ABORT_JOB), FRESH);
        assertThat(abort.verdict().accepted()).isTrue();
        assertThat(abort.input()).isEqualTo(new Input.Command(Action.ABORT_JOB, null, null, 1_000L));
    }

    @Test
    void anActionsMessageGoesToTheEngineBoundedInLength() {
        CommandStep first =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        JobInfo pending = submitted(first);
        CommandStep abort = CommandStep.of(
                pending,
                first.recent(),
                request("r2", new JobRequest.Act(Action.ABORT_JOB, null, null, "node maintenance")),
                FRESH);
        assertThat(abort.input())
                .isEqualTo(new Input.Command(Action.ABORT_JOB, null, null, "node maintenance", 1_000L));

        String tooLong = "x".repeat(ActionGate.MAX_MESSAGE + 1);
        CommandStep refused = CommandStep.of(
                pending,
                first.recent(),
                request("r3", new JobRequest.Act(Action.ABORT_JOB, null, null, tooLong)),
                FRESH);
        assertThat(refused.verdict().accepted()).isFalse();
        assertThat(refused.verdict().violations())
                .extracting(Object::toString)
                .containsExactly("command.message: at most 1024 characters, was 1025");
        assertThat(refused.input()).isNull();
    }

    @Test
    void theRecentVerdictsAreBounded() {
        CommandStep first =
                CommandStep.of(JobInfo.empty(), List.of(), request("r1", new JobRequest.Submit(MANIFEST)), FRESH);
        JobInfo pending = submitted(first);
        List<JobVerdict> recent = first.recent();
        for (int i = 0; i < JobRecord.RECENT_LIMIT + 5; i++) {
            recent = CommandStep.of(pending, recent, act("a" + i, Action.RESUME_JOB), FRESH)
                    .recent();
        }
        assertThat(recent).hasSize(JobRecord.RECENT_LIMIT);
        assertThat(recent.get(recent.size() - 1).requestId()).isEqualTo("a" + (JobRecord.RECENT_LIMIT + 4));
    }
}
