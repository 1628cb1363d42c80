package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class TerminatingStateTest {

    private final TerminatingState state = new TerminatingState();

    @Test
    void everyActionContinuesTheKillKeepingFinishedPods() {
        for (Action a : Action.values()) {
            Recorder r = Recorder.run(state, a);
            assertThat(r.call).isEqualTo("kill");
            assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
        }
    }

    @Test
    void terminatedOnceNothingIsPendingRunningOrTerminating() {
        StatusUpdater u = Recorder.run(state, Action.SYNC_JOB).updater;
        for (int[] alive : new int[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}) {
            FakeStatus s = new FakeStatus(state);
            s.pending = alive[0];
            s.running = alive[1];
            s.terminating = alive[2];
            assertThat(s.apply(u)).isFalse();
        }
        FakeStatus s = new FakeStatus(state);
        s.succeeded = 2;
        s.failed = 1;
        assertThat(s.apply(u)).isTrue();
        assertThat(s.movedTo).isEqualTo(JobPhase.Terminated);
        assertThat(state.targets()).containsExactly(JobPhase.Terminated);
    }
}
