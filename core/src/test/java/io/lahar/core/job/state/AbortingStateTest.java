package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class AbortingStateTest {

    private final AbortingState state = new AbortingState();

    @Test
    void abortedOnceNoPodIsAliveKeepingFinishedOnes() {
        Recorder r = Recorder.run(state, Action.SYNC_JOB);
        assertThat(r.call).isEqualTo("kill");
        assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
        FakeStatus busy = new FakeStatus(state);
        busy.terminating = 1;
        busy.succeeded = 2;
        assertThat(busy.apply(r.updater)).isFalse();
        FakeStatus done = new FakeStatus(state);
        done.succeeded = 2;
        done.failed = 1;
        assertThat(done.apply(r.updater)).isTrue();
        assertThat(done.movedTo).isEqualTo(JobPhase.Aborted);
    }

    @Test
    void resumeRestartsAndCountsARetry() {
        Recorder r = Recorder.run(state, Action.RESUME_JOB);
        FakeStatus s = new FakeStatus(state);
        s.apply(r.updater);
        assertThat(s.movedTo).isEqualTo(JobPhase.Restarting);
        assertThat(s.retryCount).isEqualTo(1);
    }

    @Test
    void otherActionsOnlyContinueTheKill() {
        Recorder r = Recorder.run(state, Action.RESTART_JOB);
        FakeStatus s = new FakeStatus(state);
        s.running = 1;
        assertThat(s.apply(r.updater)).isFalse();
        assertThat(s.retryCount).isZero();
    }
}
