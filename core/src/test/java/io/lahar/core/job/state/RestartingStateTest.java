package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class RestartingStateTest {

    private final RestartingState state = new RestartingState();

    @Test
    void failsOnceRetriesReachMaxRetry() {
        FakeStatus s = new FakeStatus(state);
        s.retryCount = 3;
        s.apply(Recorder.run(state, Action.SYNC_JOB).updater);
        assertThat(s.movedTo).isEqualTo(JobPhase.Failed);
        assertThat(s.reason).isEqualTo("MaxRetryExceeded");
    }

    @Test
    void pendingAgainOnceEnoughOldPodsAreGone() {
        FakeStatus s = new FakeStatus(state);
        s.retryCount = 1;
        s.terminating = 1;
        s.totalReplicas = 4;
        s.minAvailable = 3;
        s.apply(Recorder.run(state, Action.SYNC_JOB).updater);
        assertThat(s.movedTo).isEqualTo(JobPhase.Pending);
    }

    @Test
    void waitsWhileTooManyPodsAreTerminating() {
        FakeStatus s = new FakeStatus(state);
        s.retryCount = 1;
        s.terminating = 2;
        s.totalReplicas = 4;
        s.minAvailable = 3;
        assertThat(s.apply(Recorder.run(state, Action.SYNC_JOB).updater)).isFalse();
    }

    @Test
    void aLateRestartKillsOnlyWhilePodsAreAlive() {
        Recorder alive = new Recorder();
        state.execute(StateAction.of(Action.RESTART_JOB), alive);
        assertThat(alive.call).isEqualTo("kill");
        assertThat(alive.retain).isEqualTo(RetainPhases.NONE);

        Recorder gone = new Recorder();
        gone.live = false;
        state.execute(StateAction.of(Action.RESTART_JOB), gone);
        assertThat(gone.call).isEqualTo("sync");
    }

    @Test
    void restartTaskKillsItsTargetAndSyncDoesNotKill() {
        assertThat(Recorder.run(state, Action.RESTART_TASK).call).isEqualTo("killTarget");
        assertThat(Recorder.run(state, Action.SYNC_JOB).call).isEqualTo("sync");
        assertThat(state.targets()).containsExactlyInAnyOrder(JobPhase.Pending, JobPhase.Failed);
    }
}
