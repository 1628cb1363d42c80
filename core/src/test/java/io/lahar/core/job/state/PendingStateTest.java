package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class PendingStateTest {

    private final PendingState state = new PendingState();

    @Test
    void restartJobKillsEveryPodAndCountsARetry() {
        Recorder r = Recorder.run(state, Action.RESTART_JOB);
        assertThat(r.call).isEqualTo("kill");
        assertThat(r.retain).isEqualTo(RetainPhases.NONE);
        FakeStatus s = new FakeStatus(state);
        assertThat(s.apply(r.updater)).isTrue();
        assertThat(s.movedTo).isEqualTo(JobPhase.Restarting);
        assertThat(s.retryCount).isEqualTo(1);
    }

    @Test
    void restartTaskAndRestartPodKillOnlyTheirTarget() {
        Recorder task = Recorder.run(state, Action.RESTART_TASK);
        assertThat(task.call).isEqualTo("killTarget");
        assertThat(task.target).isEqualTo(Target.task("worker"));
        Recorder pod = Recorder.run(state, Action.RESTART_POD);
        assertThat(pod.target.pod()).isEqualTo("j-worker-1");
        FakeStatus s = new FakeStatus(state);
        pod.updater.update(s);
        assertThat(s.movedTo).isEqualTo(JobPhase.Restarting);
        assertThat(s.retryCount).isEqualTo(1);
    }

    @Test
    void abortTerminateCompleteKeepFinishedPods() {
        for (Action a : new Action[] {Action.ABORT_JOB, Action.TERMINATE_JOB, Action.COMPLETE_JOB}) {
            Recorder r = Recorder.run(state, a);
            assertThat(r.call).isEqualTo("kill");
            assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
            FakeStatus s = new FakeStatus(state);
            r.updater.update(s);
            assertThat(s.movedTo)
                    .isEqualTo(
                            switch (a) {
                                case ABORT_JOB -> JobPhase.Aborting;
                                case TERMINATE_JOB -> JobPhase.Terminating;
                                default -> JobPhase.Completing;
                            });
        }
    }

    @Test
    void syncRunsTheJobOnceMinAvailablePodsStartedOrFinished() {
        Recorder r = Recorder.run(state, Action.SYNC_JOB);
        assertThat(r.call).isEqualTo("sync");
        FakeStatus waiting = new FakeStatus(state);
        waiting.running = 1;
        waiting.succeeded = 1;
        waiting.pending = 1;
        assertThat(waiting.apply(r.updater)).isFalse();
        assertThat(waiting.movedTo).isNull();

        FakeStatus ready = new FakeStatus(state);
        ready.running = 1;
        ready.succeeded = 1;
        ready.failed = 1;
        assertThat(ready.apply(r.updater)).isTrue();
        assertThat(ready.movedTo).isEqualTo(JobPhase.Running);
        assertThat(ready.reason).isEqualTo("MinAvailableReached");
    }

    @Test
    void resumeIsNotAKillInPending() {
        assertThat(Recorder.run(state, Action.RESUME_JOB).call).isEqualTo("sync");
    }

    @Test
    void cannotJumpToAFinalPhase() {
        FakeStatus s = new FakeStatus(state);
        assertThatThrownBy(() -> s.moveTo(JobPhase.Completed, null, null)).isInstanceOf(IllegalStateException.class);
        assertThat(state.targets())
                .containsExactlyInAnyOrder(
                        JobPhase.Running,
                        JobPhase.Restarting,
                        JobPhase.Aborting,
                        JobPhase.Completing,
                        JobPhase.Terminating);
    }
}
