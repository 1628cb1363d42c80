package io.lahar.core.job.state;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompletedStateTest {

    private final CompletedState state = new CompletedState();

    @Test
    void isFinalWhateverTheAction() {
        assertThat(state.targets()).isEmpty();
        for (Action a : Action.values()) {
            Recorder r = Recorder.run(state, a);
            assertThat(r.call).isEqualTo("kill");
            assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
            FakeStatus s = new FakeStatus(state);
            assertThat(s.apply(r.updater)).isFalse();
            assertThat(s.movedTo).isNull();
        }
        for (JobPhase p : JobPhase.values()) {
            assertThatThrownBy(() -> new FakeStatus(state).moveTo(p, null, null))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theFactoryGivesThisStateForItsPhase() {
        assertThat(PhaseState.of(JobPhase.Completed)).isInstanceOf(CompletedState.class);
    }
}
