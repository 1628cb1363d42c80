package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class AbortedStateTest {

    private final AbortedState state = new AbortedState();

    @Test
    void resumeRestartsTheJob() {
        Recorder r = Recorder.run(state, Action.RESUME_JOB);
        assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
        FakeStatus s = new FakeStatus(state);
        s.apply(r.updater);
        assertThat(s.movedTo).isEqualTo(JobPhase.Restarting);
        assertThat(s.retryCount).isEqualTo(1);
    }

    @Test
    void anythingElseStaysAbortedAndKeepsFinishedPods() {
        for (Action a : new Action[] {Action.SYNC_JOB, Action.RESTART_JOB, Action.COMPLETE_JOB}) {
            Recorder.assertKillsAndStays(state, a);
        }
        assertThatThrownBy(() -> new FakeStatus(state).moveTo(JobPhase.Running, null, null))
                .isInstanceOf(IllegalStateException.class);
    }
}
